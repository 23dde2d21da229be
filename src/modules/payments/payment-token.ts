import { eq, gt } from "drizzle-orm";
import type { Config } from "../../config.ts";
import type { Keyring } from "../../platform/crypto/keyring.ts";
import { masterKeyOf, seal, sealingKeys, unsealWithAny } from "../../platform/crypto/sealed.ts";
import type { Database } from "../../platform/db/index.ts";
import { payments } from "./tables.ts";

type KeySettings = Pick<Config, "masterKey" | "masterKeyPrevious" | "dataDir">;

/**
 * The payment token is a credential (the shopper's page acts with it), so it is kept two ways:
 * hashed, to find a payment by token, and sealed with the master key, bound to the payment's id,
 * so the app's own reads can answer it (a sealed value copied onto another payment does not open).
 */
const context = (paymentId: string) => `payment-token:${paymentId}`;

export function sealPaymentToken(config: KeySettings, token: string, paymentId: string): string {
  return seal(masterKeyOf(config), token, context(paymentId));
}

/** The token of a payment, for the app's own credentials; null when it was never kept sealed. */
export function openPaymentToken(
  config: KeySettings,
  row: { id: string; paymentTokenSealed: string | null },
): string | null {
  if (!row.paymentTokenSealed) return null;
  // Any key of the ring: tokens sealed before a master-key rotation keep opening.
  return unsealWithAny(sealingKeys(config), row.paymentTokenSealed, context(row.id)).plaintext;
}

const PAGE = 1000;

/**
 * Re-seals every payment token under the current master key, for `npm run rotate-master-key`:
 * page by page in id order, skipping tokens already under the current key. A token is never
 * changed once made, so no write can race this one.
 */
export async function resealPaymentTokens(db: Database, keyring: Keyring): Promise<{ resealed: number }> {
  let resealed = 0;
  let after = "";
  for (;;) {
    const rows = await db
      .select({ id: payments.id, sealed: payments.paymentTokenSealed })
      .from(payments)
      .where(gt(payments.id, after))
      .orderBy(payments.id)
      .limit(PAGE);
    for (const row of rows) {
      if (!row.sealed) continue;
      const opened = unsealWithAny(keyring, row.sealed, context(row.id));
      if (opened.current) continue;
      await db
        .update(payments)
        .set({ paymentTokenSealed: seal(keyring.current.key, opened.plaintext, context(row.id)) })
        .where(eq(payments.id, row.id));
      resealed++;
    }
    if (rows.length < PAGE) return { resealed };
    after = rows[rows.length - 1].id;
  }
}
