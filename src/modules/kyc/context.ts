import type { Deps } from "../../deps.ts";
import { SandboxKycProvider } from "../../platform/providers/kyc/sandbox.ts";
import { StripeConnectProvider } from "../../platform/providers/kyc/stripe.ts";
import type { KycProvider } from "../../platform/providers/kyc/types.ts";
import { createSealer, type Sealer } from "./sealing.ts";

/** What the KYC module needs beyond the common deps: its provider and its sealing key. */
export interface KycContext {
  provider: KycProvider;
  sealer: Sealer;
}

/**
 * The provider named by the validated config (`KYC_PROVIDER`, by default the payments provider):
 * `stripe` runs on STRIPE_SECRET_KEY and STRIPE_CONNECT_WEBHOOK_SECRET, which the config requires.
 */
export function createKycContext(deps: Deps): KycContext {
  const { config } = deps;
  const sealer = createSealer(config);
  if (config.kyc.provider === "sandbox") return { provider: new SandboxKycProvider(deps.db), sealer };
  const provider = new StripeConnectProvider({
    secretKey: config.stripeSecretKey!,
    webhookSecret: config.kyc.connectWebhookSecret!,
    ...config.stripeApi,
  });
  return { provider, sealer };
}
