// Moves every stored secret to the current master key (docs/custody.md): wallet keys and Solana
// tree and collection keys are re-wrapped; webhook secrets, KYC edit tokens, payment tokens, queued KYC
// inputs and sandbox mails are re-sealed.
//
// With SECRETS_MASTER_KEY set: deploy every process with it set to the new key and
// SECRETS_MASTER_KEY_PREVIOUS to the old one(s) first (they keep sealing with the old key, which
// the database still names); this names the new key as the sealing one, tells every process, and
// re-wraps, after which the old keys can be dropped from the environment.
// With the embedded key file (no SECRETS_MASTER_KEY): a fresh key is put first in the file, then
// named, and every running process reads the file again on the notice; the old keys stay in the
// file, harmless, until removed by hand.
import { ConfigError, loadConfig } from "../src/config.ts";
import { recordRotation, resealEverything } from "../src/master-key-rotation.ts";
import { retireFormerKeys, startSealingWith } from "../src/platform/crypto/key-registry.ts";
import { keyringFromConfig, rotateKeyFile } from "../src/platform/crypto/keyring.ts";
import { migrateDatabase, openDatabase } from "../src/platform/db/index.ts";

const GRACE_MS = 2000;

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const keyring = config.masterKey ? keyringFromConfig(config) : rotateKeyFile(config.dataDir);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: 2,
  });
  try {
    await migrateDatabase(database);
    try {
      await startSealingWith(database.db, keyring);
    } catch (error) {
      if (error instanceof ConfigError) {
        console.error(error.message);
        process.exitCode = 2;
        return;
      }
      throw error;
    }
    // Lets every process take the notice (and a transaction that sealed just before it, commit)
    // before the values are visited.
    await new Promise((resolve) => setTimeout(resolve, GRACE_MS));
    const counts = await resealEverything(database.db, keyring);
    // A value sealed with a former key by a process that had not yet taken the notice, after the pass
    // had gone by its table: passes again until one finds nothing left to move.
    let settled = false;
    for (let pass = 0; pass < 5 && !settled; pass++) {
      const more = await resealEverything(database.db, keyring);
      settled = Object.values(more).every((n) => n === 0);
      for (const kind of Object.keys(counts) as (keyof typeof counts)[]) counts[kind] += more[kind];
    }
    // Former keys stay recorded (a process must still hold them) until nothing is left under them.
    const retired = settled ? await retireFormerKeys(database.db, keyring) : [];
    if (settled) await recordRotation(database.db, keyring.current.id);
    if (!settled) console.error("Secrets were still being sealed with a former key: run the command again");
    console.log(
      `Re-wrapped ${counts.wallets} wallet secret(s) and ${counts.solanaAccounts} Solana tree/collection key(s); ` +
        `re-sealed ${counts.webhookSecrets} webhook secret(s), ${counts.kycTokens} KYC edit token(s), ${counts.paymentTokens} payment token(s), ` +
        `${counts.kycJobInputs} queued KYC input(s), ${counts.sandboxMails} sandbox mail(s), ` +
        `${counts.invitationTokens} invitation token(s) and ${counts.shopperCodes} auction sign-in code(s) waiting for their mail ` +
        `and ${counts.idempotentAnswers} kept idempotent answer(s) ` +
        `under master key ${keyring.current.id}` +
        (retired.length > 0 ? `; the database no longer holds anything under ${retired.join(", ")}` : ""),
    );
  } finally {
    await database.close();
  }
}

await main();
