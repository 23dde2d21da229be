import { resealKycJobInputs, resealKycTokens } from "./modules/kyc/rotation.ts";
import { resealPaymentTokens } from "./modules/payments/payment-token.ts";
import { resealSandboxMails } from "./modules/sandbox-inbox/service.ts";
import { rewrapSolanaSecrets } from "./modules/solana/rotation.ts";
import { rewrapWalletSecrets } from "./modules/wallets/secrets.ts";
import { resealWebhookSecrets } from "./modules/webhooks/rotation.ts";
import { Custody } from "./platform/crypto/custody.ts";
import type { Keyring } from "./platform/crypto/keyring.ts";
import type { Database } from "./platform/db/index.ts";

/** How many stored secrets of each kind `reseal` moved to the current master key. */
export interface ResealCounts {
  wallets: number;
  solanaAccounts: number;
  webhookSecrets: number;
  kycTokens: number;
  kycJobInputs: number;
  paymentTokens: number;
  sandboxMails: number;
}

/**
 * Moves every stored secret to the keyring's current master key: the envelope-encrypted ones
 * (wallet keys, Solana tree and collection account keys) are re-wrapped, the directly sealed ones
 * (webhook signing secrets, KYC edit tokens and queued KYC inputs, payment tokens, sandbox mails) re-sealed. Once it
 * has run, no stored secret needs a former key. Each kind skips what is already current, so it
 * can run again after an interruption, and while the service runs.
 */
export async function resealEverything(db: Database, keyring: Keyring): Promise<ResealCounts> {
  const custody = new Custody(() => keyring);
  return {
    wallets: (await rewrapWalletSecrets({ db, custody })).rewrapped,
    solanaAccounts: (await rewrapSolanaSecrets({ db, custody })).rewrapped,
    webhookSecrets: (await resealWebhookSecrets(db, keyring)).resealed,
    kycTokens: (await resealKycTokens(db, keyring)).resealed,
    kycJobInputs: (await resealKycJobInputs(db, keyring)).resealed,
    paymentTokens: (await resealPaymentTokens(db, keyring)).resealed,
    sandboxMails: (await resealSandboxMails(db, keyring)).resealed,
  };
}
