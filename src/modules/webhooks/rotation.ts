import { eq } from "drizzle-orm";
import type { Keyring } from "../../platform/crypto/keyring.ts";
import { seal, unsealWithAny } from "../../platform/crypto/sealed.ts";
import type { Database } from "../../platform/db/index.ts";
import { webhookEndpoints } from "./tables.ts";

function openWithAny(keyring: Keyring, sealed: string, context: string) {
  const { plaintext, current } = unsealWithAny(keyring, sealed, context);
  return { secret: plaintext, current };
}

/**
 * Webhook signing secrets are sealed directly with the master key (src/platform/crypto/sealed.ts,
 * no key id), so rotating the master key re-seals them under the current key. Called by
 * `npm run rotate-master-key` with the wallets' re-wrap; rows already under the current key are left alone.
 */
export async function resealWebhookSecrets(db: Database, keyring: Keyring): Promise<{ resealed: number }> {
  let resealed = 0;
  const rows = await db.select().from(webhookEndpoints);
  for (const row of rows) {
    const secret = openWithAny(keyring, row.secretSealed, row.id);
    const previous = row.previousSecretSealed
      ? openWithAny(keyring, row.previousSecretSealed, `${row.id}:previous`)
      : undefined;
    if (secret.current && (previous?.current ?? true)) continue;
    const key = keyring.current.key;
    const updated = await db
      .update(webhookEndpoints)
      .set({
        secretSealed: seal(key, secret.secret, row.id),
        previousSecretSealed: previous
          ? seal(key, previous.secret, `${row.id}:previous`)
          : row.previousSecretSealed,
      })
      // Only if unchanged since read: a secret rotated meanwhile is already sealed under the current key.
      .where(eq(webhookEndpoints.secretSealed, row.secretSealed))
      .returning({ id: webhookEndpoints.id });
    resealed += updated.length;
  }
  return { resealed };
}
