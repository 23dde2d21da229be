import { eq } from "drizzle-orm";
import type { Keyring } from "../../platform/crypto/keyring.ts";
import { seal, unsealWithAny } from "../../platform/crypto/sealed.ts";
import type { Database } from "../../platform/db/index.ts";
import { kycs } from "./tables.ts";

const context = (kycId: string) => `kyc:${kycId}`;

/**
 * Re-seals every KYC edit token under the current master key, for `npm run rotate-master-key`:
 * once it has run, the former key can leave SECRETS_MASTER_KEY_PREVIOUS. Rows already under the
 * current key, and rows changed meanwhile (a refreshed token is sealed under the current key), are
 * left alone.
 */
export async function resealKycTokens(db: Database, keyring: Keyring): Promise<{ resealed: number }> {
  let resealed = 0;
  for (const row of await db.select({ id: kycs.id, sealed: kycs.editTokenSealed }).from(kycs)) {
    const opened = unsealWithAny(keyring, row.sealed, context(row.id));
    if (opened.current) continue;
    const updated = await db
      .update(kycs)
      .set({ editTokenSealed: seal(keyring.current.key, opened.plaintext, context(row.id)) })
      .where(eq(kycs.editTokenSealed, row.sealed))
      .returning({ id: kycs.id });
    resealed += updated.length;
  }
  return { resealed };
}
