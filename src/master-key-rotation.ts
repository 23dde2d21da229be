import os from "node:os";
import { listAppIds } from "./modules/apps/service.ts";
import { resealShopperCodes } from "./modules/auctions/code-mail.ts";
import { resealKycJobInputs, resealKycTokens } from "./modules/kyc/rotation.ts";
import { resealInvitationTokens } from "./modules/members/jobs.ts";
import { resealPaymentTokens } from "./modules/payments/payment-token.ts";
import { resealSandboxMails } from "./modules/sandbox-inbox/service.ts";
import { rewrapSolanaSecrets } from "./modules/solana/rotation.ts";
import { resealTotpSecrets } from "./modules/users/two-factor.ts";
import { rewrapWalletSecrets } from "./modules/wallets/secrets.ts";
import { resealWebhookSecrets } from "./modules/webhooks/rotation.ts";
import { recordOperatorAudit } from "./platform/audit/log.ts";
import { Custody } from "./platform/crypto/custody.ts";
import type { Keyring } from "./platform/crypto/keyring.ts";
import type { Database } from "./platform/db/index.ts";
import { resealIdempotentAnswers } from "./platform/http/idempotency.ts";

/** How many stored secrets of each kind `reseal` moved to the current master key. */
export interface ResealCounts {
  wallets: number;
  solanaAccounts: number;
  webhookSecrets: number;
  kycTokens: number;
  kycJobInputs: number;
  paymentTokens: number;
  sandboxMails: number;
  idempotentAnswers: number;
  invitationTokens: number;
  totpSecrets: number;
  shopperCodes: number;
}

/**
 * Moves every stored secret to the keyring's current master key, each kind through the one reseal
 * routine (src/platform/crypto/reseal.ts): envelopes are re-wrapped (their ciphertext kept), values
 * of the former direct scheme sealed afresh as envelopes. Once it has run, no stored secret needs a
 * former key. Each kind skips what is already current, so it can run again after an interruption,
 * and while the service runs.
 */
export async function resealEverything(db: Database, keyring: Keyring): Promise<ResealCounts> {
  const deps = { db, custody: new Custody(() => keyring) };
  return {
    wallets: (await rewrapWalletSecrets(deps)).rewrapped,
    solanaAccounts: (await rewrapSolanaSecrets(deps)).rewrapped,
    webhookSecrets: (await resealWebhookSecrets(deps)).resealed,
    kycTokens: (await resealKycTokens(deps)).resealed,
    kycJobInputs: (await resealKycJobInputs(deps)).resealed,
    paymentTokens: (await resealPaymentTokens(deps)).resealed,
    sandboxMails: (await resealSandboxMails(deps)).resealed,
    idempotentAnswers: await resealIdempotentAnswers(deps),
    invitationTokens: await resealInvitationTokens(deps),
    totpSecrets: (await resealTotpSecrets(deps)).resealed,
    shopperCodes: await resealShopperCodes(deps),
  };
}

/**
 * Writes the rotation into every app's audit log (`master_key.rotate`, its target the new key's
 * fingerprint id): every app's stored secrets are moved to that key, so every owner sees when.
 */
export async function recordRotation(db: Database, keyId: string): Promise<void> {
  const account = (() => {
    try {
      return os.userInfo().username;
    } catch {
      return "unknown";
    }
  })();
  await recordOperatorAudit(db, await listAppIds(db), {
    action: "master_key.rotate",
    operator: `${account}@${os.hostname()}`,
    credentialId: keyId,
    targetId: keyId,
  });
}
