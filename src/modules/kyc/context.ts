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

type Env = Record<string, string | undefined>;

/**
 * The provider is chosen by id (KYC_PROVIDER, by default the payments provider): `stripe` needs
 * STRIPE_SECRET_KEY and STRIPE_CONNECT_WEBHOOK_SECRET. STRIPE_API_HOST/PORT/PROTOCOL point the
 * SDK at a stand-in server (tests only).
 */
export function createKycContext(deps: Deps, env: Env = process.env): KycContext {
  const sealer = createSealer(deps.config);
  const id = env.KYC_PROVIDER || deps.config.paymentsProvider;
  if (id === "stripe") {
    const secretKey = deps.config.stripeSecretKey ?? env.STRIPE_SECRET_KEY;
    const webhookSecret = env.STRIPE_CONNECT_WEBHOOK_SECRET;
    if (!secretKey || !webhookSecret) {
      throw new Error("KYC_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_CONNECT_WEBHOOK_SECRET");
    }
    const provider = new StripeConnectProvider({
      secretKey,
      webhookSecret,
      host: env.STRIPE_API_HOST || undefined,
      port: env.STRIPE_API_PORT ? Number(env.STRIPE_API_PORT) : undefined,
      protocol: env.STRIPE_API_PROTOCOL === "http" ? "http" : undefined,
    });
    return { provider, sealer };
  }
  if (id !== "sandbox") throw new Error(`Unknown KYC_PROVIDER ${id}`);
  return { provider: new SandboxKycProvider(deps.db), sealer };
}
