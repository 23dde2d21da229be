import type { Config } from "../../../config.ts";
import type { Database } from "../../db/index.ts";
import { SandboxKycProvider } from "./sandbox.ts";
import type { KycProvider } from "./types.ts";

/**
 * The seller-onboarding provider named by the validated config (`KYC_PROVIDER`, by default the
 * payments provider): `stripe` runs on STRIPE_SECRET_KEY and STRIPE_CONNECT_WEBHOOK_SECRET, which
 * the config requires; `sandbox` keeps its accounts in its own table. Stripe's SDK is loaded only
 * for `stripe`.
 */
export async function createKycProvider(config: Config, db: Database): Promise<KycProvider> {
  if (config.kyc.provider === "sandbox") return new SandboxKycProvider(db);
  const { StripeConnectProvider } = await import("./stripe.ts");
  return new StripeConnectProvider({
    secretKey: config.stripeSecretKey!,
    webhookSecret: config.kyc.connectWebhookSecret!,
    ...config.stripeApi,
  });
}
