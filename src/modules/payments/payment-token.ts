import type { Deps } from "../../deps.ts";
import type { Custody } from "../../platform/crypto/custody.ts";
import { resealColumn, sealedTextColumn } from "../../platform/crypto/reseal.ts";
import { expiringMapPer } from "../../platform/expiring-map.ts";
import { payments } from "./tables.ts";

/**
 * The payment token is a credential (the shopper's page acts with it), so it is kept two ways:
 * hashed, to find a payment by token, and sealed under the master key, bound to the payment's id,
 * so the app's own reads can answer it (a sealed value copied onto another payment does not open).
 */
const context = (paymentId: string) => `payment-token:${paymentId}`;

/**
 * Tokens this process opened or sealed, by payment, with the sealed text they were opened from: a
 * page of twenty payments opened forty AES-GCM layers a request, an eighth of its CPU
 * (docs/benchmarks.md, "Lists built once per shape"). An entry answers only for its own payment and
 * sealed text, so a sealed text copied onto another payment still has to open under that payment's
 * context, and a re-sealed token (a rotation) is opened again and replaces the entry. Keyed by the
 * id alone, not by the id and the sealed text joined: a read then hashes a short string it already
 * has rather than a new one of 150 characters (docs/benchmarks.md, "A page's prices, each read and
 * presented once"). The master keys that open every token live in this process too, so a token
 * kept in memory a few minutes shows a memory read nothing it could not reach already.
 */
const openedBy = expiringMapPer<Custody, string, { sealed: string; token: string }>({
  ttlMs: 5 * 60_000,
  maxEntries: 10_000,
});

export function sealPaymentToken(custody: Custody, token: string, paymentId: string): string {
  const sealed = custody.sealText(context(paymentId), token);
  // The create answers the token, and its caller's next read of the payment answers it again.
  openedBy(custody).set(paymentId, { sealed, token });
  return sealed;
}

/** The token of a payment, for the app's own credentials; null when it was never kept sealed. */
export function openPaymentToken(
  custody: Custody,
  row: { id: string; paymentTokenSealed: string | null },
): string | null {
  if (!row.paymentTokenSealed) return null;
  const opened = openedBy(custody);
  const known = opened.get(row.id);
  if (known?.sealed === row.paymentTokenSealed) return known.token;
  // Any key of the ring: tokens sealed before a master-key rotation keep opening.
  const token = custody.openText(context(row.id), row.paymentTokenSealed);
  opened.set(row.id, { sealed: row.paymentTokenSealed, token });
  return token;
}

/** Re-seals every payment token under the current master key, for `npm run rotate-master-key`. */
export async function resealPaymentTokens(deps: Pick<Deps, "db" | "custody">): Promise<{ resealed: number }> {
  return {
    resealed: await resealColumn(
      deps.custody,
      sealedTextColumn(deps.db, payments, "paymentTokenSealed", context),
      1000,
    ),
  };
}
