// Re-wraps every wallet's data key, and re-seals every webhook secret, under the current master key
// (docs/custody.md).
//
// With SECRETS_MASTER_KEY set: set it to the new key and SECRETS_MASTER_KEY_PREVIOUS to the old
// one(s) first; this re-wraps, after which the old keys can be dropped from the environment.
// With the embedded key file (no SECRETS_MASTER_KEY): a fresh key is put first in the file, then
// everything is re-wrapped; the old keys stay in the file, harmless, until removed by hand.
import { ConfigError, loadConfig } from "../src/config.ts";
import { resealKycTokens } from "../src/modules/kyc/rotation.ts";
import { rewrapWalletSecrets } from "../src/modules/wallets/secrets.ts";
import { resealWebhookSecrets } from "../src/modules/webhooks/rotation.ts";
import { Custody } from "../src/platform/crypto/custody.ts";
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
    const { rewrapped } = await rewrapWalletSecrets({ db: database.db, custody: new Custody(() => keyring) });
    const { resealed } = await resealWebhookSecrets(database.db, keyring);
    const kyc = await resealKycTokens(database.db, keyring);
    console.log(
      `Re-wrapped ${rewrapped} wallet secret(s) and re-sealed ${resealed} webhook secret(s) and ${kyc.resealed} KYC edit token(s) under master key ${keyring.current.id}`,
    );
  } finally {
    await database.close();
  }
}

await main();
