// Moves every stored secret to the current master key (docs/custody.md): wallet keys and Solana
// tree and collection keys are re-wrapped; webhook secrets, KYC edit tokens, payment tokens, queued KYC
// inputs and sandbox mails are re-sealed.
//
// With SECRETS_MASTER_KEY set: set it to the new key and SECRETS_MASTER_KEY_PREVIOUS to the old
// one(s) first; this re-wraps, after which the old keys can be dropped from the environment.
// With the embedded key file (no SECRETS_MASTER_KEY): a fresh key is put first in the file, then
// everything is re-wrapped; the old keys stay in the file, harmless, until removed by hand.
import { ConfigError, loadConfig } from "../src/config.ts";
import { resealEverything } from "../src/master-key-rotation.ts";
import { keyringFromConfig, rotateKeyFile } from "../src/platform/crypto/keyring.ts";
import { migrateDatabase, openDatabase } from "../src/platform/db/index.ts";

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
    const counts = await resealEverything(database.db, keyring);
    console.log(
      `Re-wrapped ${counts.wallets} wallet secret(s) and ${counts.solanaAccounts} Solana tree/collection key(s); ` +
        `re-sealed ${counts.webhookSecrets} webhook secret(s), ${counts.kycTokens} KYC edit token(s), ${counts.paymentTokens} payment token(s), ` +
        `${counts.kycJobInputs} queued KYC input(s) and ${counts.sandboxMails} sandbox mail(s) ` +
        `under master key ${keyring.current.id}`,
    );
  } finally {
    await database.close();
  }
}

await main();
