import type { Config } from "../../../config.ts";
import { type DatabaseHandle, statementRunner } from "../../db/index.ts";
import { invalid } from "../../http/errors.ts";
import { SandboxPaymentProvider } from "./sandbox/provider.ts";
import { PAYMENT_METHODS, type PaymentMethodType, type PaymentProvider, type ProviderId } from "./types.ts";

/** The payment providers the service can use, and the one each payment method goes to. */
export interface PaymentProviders {
  /** The provider that serves `method` (both methods go to the configured provider today). */
  forMethod(method: string): PaymentProvider;
  /** A provider by id, e.g. to verify an inbound webhook addressed to it. */
  byId(id: ProviderId): PaymentProvider;
  readonly active: PaymentProvider;
  /** Always there: tests and the hosted page's 3-D Secure challenge use it in sandbox mode. */
  readonly sandbox: SandboxPaymentProvider;
}

/**
 * The providers the config names. Stripe's SDK is loaded only when its keys are set: a sandbox
 * process never holds it in memory (docs/benchmarks.md, "Memory given back, 2026-11-25").
 */
export async function createPaymentProviders(
  config: Config,
  database: Pick<DatabaseHandle, "db" | "engine" | "pool">,
  now: () => Date,
  overrides: Partial<Record<ProviderId, PaymentProvider>> = {},
  /** Wraps each provider calls go through (tracing: a span per call); `sandbox` stays bare for tests. */
  wrap: (provider: PaymentProvider, name: string) => PaymentProvider = (provider) => provider,
): Promise<PaymentProviders> {
  const sandbox = new SandboxPaymentProvider({
    db: database.db,
    run: statementRunner(database),
    now,
    publicUrl: config.publicUrl,
  });
  const providers = new Map<ProviderId, PaymentProvider>([
    ["sandbox", wrap(overrides.sandbox ?? sandbox, "payments.sandbox")],
  ]);
  if (overrides.stripe) providers.set("stripe", wrap(overrides.stripe, "payments.stripe"));
  else if (config.stripeSecretKey && config.stripeWebhookSecret) {
    const { StripePaymentProvider } = await import("./stripe/provider.ts");
    const stripe = new StripePaymentProvider({
      secretKey: config.stripeSecretKey,
      webhookSecret: config.stripeWebhookSecret,
      ...(config.stripeApi ?? {}),
    });
    providers.set("stripe", wrap(stripe, "payments.stripe"));
  }
  const byId = (id: ProviderId) => {
    const provider = providers.get(id);
    // Config validation makes this unreachable for the active provider; it guards the others.
    if (!provider) throw new Error(`Payment provider ${id} is not configured`);
    return provider;
  };
  const active = byId(config.paymentsProvider);
  return {
    active,
    sandbox,
    byId,
    forMethod(method) {
      if (!PAYMENT_METHODS.includes(method as PaymentMethodType)) {
        throw invalid("/payment_provider", `must be one of ${PAYMENT_METHODS.join(", ")}`);
      }
      return active;
    },
  };
}
