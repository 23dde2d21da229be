import type { Deps } from "../../deps.ts";
import type { Custody } from "../../platform/crypto/custody.ts";
import { resealColumn, sealedTextColumn } from "../../platform/crypto/reseal.ts";
import { payments } from "./tables.ts";

/**
 * The payment token is a credential (the shopper's page acts with it), so it is kept two ways:
 * hashed, to find a payment by token, and sealed under the master key, bound to the payment's id,
 * so the app's own reads can answer it (a sealed value copied onto another payment does not open).
 */
const context = (paymentId: string) => `payment-token:${paymentId}`;

export function sealPaymentToken(custody: Custody, token: string, paymentId: string): string {
  return custody.sealText(context(paymentId), token);
}

/** The token of a payment, for the app's own credentials; null when it was never kept sealed. */
export function openPaymentToken(
  custody: Custody,
  row: { id: string; paymentTokenSealed: string | null },
): string | null {
  if (!row.paymentTokenSealed) return null;
  // Any key of the ring: tokens sealed before a master-key rotation keep opening.
  return custody.openText(context(row.id), row.paymentTokenSealed);
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
