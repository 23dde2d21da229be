import { ConfigError, type Env, integer } from "./parse.ts";

/** The payment and seller-onboarding providers and their Stripe keys (docs/providers.md). */
export interface PaymentSettings {
  /** Which payment provider serves `card` and `us_bank_account`: `sandbox` or `stripe`. */
  paymentsProvider: "sandbox" | "stripe";
  /** Stripe secret (or restricted) key; required when `paymentsProvider` is `stripe`. */
  stripeSecretKey: string | undefined;
  /** Signing secret of the Stripe webhook endpoint (`whsec_…`); required with Stripe. */
  stripeWebhookSecret: string | undefined;
  /** Seller onboarding provider (`KYC_PROVIDER`, by default the payments provider) and its Connect webhook secret. */
  kyc: { provider: "sandbox" | "stripe"; connectWebhookSecret: string | undefined };
  /**
   * Stripe publishable key (`pk_test_…`/`pk_live_…`) the hosted checkout gives Stripe.js; public by
   * design, required with Stripe because the page makes the card's payment method with it.
   */
  stripePublishableKey: string | undefined;
  /** Where the hosted checkout loads Stripe.js from; tests point it at a loopback stand-in. */
  stripeJsUrl: string;
  /** Where the Stripe SDK sends API calls (STRIPE_API_HOST/PORT/PROTOCOL); absent: Stripe's own. */
  stripeApi: StripeApiAddress | undefined;
}

export interface StripeApiAddress {
  host: string;
  port: number | undefined;
  protocol: "http" | "https";
}

/** Test mode uses the sandbox providers; a live server must name its real provider's keys. */
export function loadPaymentSettings(env: Env, sandbox: boolean): PaymentSettings {
  const payments = paymentSettings(env, sandbox);
  return { ...payments, kyc: kycSettings(env, payments.paymentsProvider) };
}

function paymentSettings(env: Env, sandbox: boolean): Omit<PaymentSettings, "kyc"> {
  const provider = env.PAYMENTS_PROVIDER || (sandbox ? "sandbox" : "stripe");
  if (provider !== "sandbox" && provider !== "stripe") {
    throw new ConfigError("PAYMENTS_PROVIDER", `must be sandbox or stripe, got "${provider}"`);
  }
  const stripeSecretKey = env.STRIPE_SECRET_KEY || undefined;
  const stripeWebhookSecret = env.STRIPE_WEBHOOK_SECRET || undefined;
  if (stripeSecretKey !== undefined && !/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/.test(stripeSecretKey)) {
    throw new ConfigError("STRIPE_SECRET_KEY", "must be a Stripe secret key (sk_test_…, sk_live_… or rk_…)");
  }
  if (stripeWebhookSecret !== undefined && !/^whsec_[A-Za-z0-9+/=]+$/.test(stripeWebhookSecret)) {
    throw new ConfigError("STRIPE_WEBHOOK_SECRET", "must be a webhook signing secret (whsec_…)");
  }
  if (provider === "stripe") {
    if (!stripeSecretKey)
      throw new ConfigError("STRIPE_SECRET_KEY", "is required when PAYMENTS_PROVIDER is stripe");
    if (!stripeWebhookSecret) {
      throw new ConfigError("STRIPE_WEBHOOK_SECRET", "is required when PAYMENTS_PROVIDER is stripe");
    }
    checkKeyMode("STRIPE_SECRET_KEY", sandbox, stripeSecretKey.includes("_test_"));
  }
  const stripePublishableKey = env.STRIPE_PUBLISHABLE_KEY || undefined;
  if (stripePublishableKey !== undefined && !/^pk_(test|live)_[A-Za-z0-9]+$/.test(stripePublishableKey)) {
    throw new ConfigError(
      "STRIPE_PUBLISHABLE_KEY",
      "must be a Stripe publishable key (pk_test_… or pk_live_…)",
    );
  }
  if (provider === "stripe") {
    // The hosted checkout turns the card into a payment method with Stripe.js, which needs this key.
    if (!stripePublishableKey) {
      throw new ConfigError("STRIPE_PUBLISHABLE_KEY", "is required when PAYMENTS_PROVIDER is stripe");
    }
    checkKeyMode("STRIPE_PUBLISHABLE_KEY", sandbox, stripePublishableKey.startsWith("pk_test_"));
  }
  const stripeJsUrl = env.STRIPE_JS_URL || "https://js.stripe.com/v3/";
  let jsUrl: URL | undefined;
  try {
    jsUrl = new URL(stripeJsUrl);
  } catch {}
  // https only, but a loopback stand-in may be http: the page's CSP names this URL's origin.
  const loopback = jsUrl && /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(jsUrl.hostname);
  if (
    !jsUrl ||
    !(jsUrl.protocol === "https:" || (jsUrl.protocol === "http:" && loopback)) ||
    jsUrl.username
  ) {
    throw new ConfigError("STRIPE_JS_URL", "must be an https URL (http only on a loopback address)");
  }
  // Stripe asks that Stripe.js always come from js.stripe.com (PCI); a stand-in is for test mode.
  if (!sandbox && provider === "stripe" && jsUrl.origin !== "https://js.stripe.com") {
    throw new ConfigError("STRIPE_JS_URL", "must be on https://js.stripe.com in live mode");
  }
  return {
    paymentsProvider: provider as "sandbox" | "stripe",
    stripeSecretKey,
    stripeWebhookSecret,
    stripePublishableKey,
    stripeJsUrl: jsUrl.href,
    stripeApi: stripeApiAddress(env, sandbox),
  };
}

/** Refuses a Stripe key of the other mode: a sandbox server takes test keys, a live one live keys. */
function checkKeyMode(name: string, sandbox: boolean, isTestKey: boolean): void {
  if (sandbox !== isTestKey) {
    throw new ConfigError(name, sandbox ? "must be a test key in sandbox mode" : "must be a live key");
  }
}

/** STRIPE_API_HOST/PORT/PROTOCOL: point the Stripe SDK at a stand-in server (tests only). */
function stripeApiAddress(env: Env, sandbox: boolean): StripeApiAddress | undefined {
  const host = env.STRIPE_API_HOST || undefined;
  const protocol = env.STRIPE_API_PROTOCOL || "https";
  if (protocol !== "http" && protocol !== "https") {
    throw new ConfigError("STRIPE_API_PROTOCOL", "must be http or https");
  }
  const port = env.STRIPE_API_PORT ? integer(env, "STRIPE_API_PORT", 443, 1, 65535) : undefined;
  if (!host) {
    if (port !== undefined || env.STRIPE_API_PROTOCOL) {
      throw new ConfigError(
        "STRIPE_API_HOST",
        "is required when STRIPE_API_PORT or STRIPE_API_PROTOCOL is set",
      );
    }
    return undefined;
  }
  if (!/^[A-Za-z0-9.-]+$/.test(host)) throw new ConfigError("STRIPE_API_HOST", "must be a host name");
  // The secret key goes wherever this points: a live server talks to Stripe itself, nowhere else.
  if (!sandbox) throw new ConfigError("STRIPE_API_HOST", "is for test stand-ins and refused in live mode");
  return { host, port, protocol };
}

function kycSettings(env: Env, fallback: "sandbox" | "stripe"): PaymentSettings["kyc"] {
  const provider = env.KYC_PROVIDER || fallback;
  if (provider !== "sandbox" && provider !== "stripe") {
    throw new ConfigError("KYC_PROVIDER", `must be sandbox or stripe, got "${provider}"`);
  }
  const connectWebhookSecret = env.STRIPE_CONNECT_WEBHOOK_SECRET || undefined;
  if (connectWebhookSecret !== undefined && !/^whsec_[A-Za-z0-9+/=]+$/.test(connectWebhookSecret)) {
    throw new ConfigError("STRIPE_CONNECT_WEBHOOK_SECRET", "must be a webhook signing secret (whsec_…)");
  }
  if (provider === "stripe") {
    if (!env.STRIPE_SECRET_KEY)
      throw new ConfigError("STRIPE_SECRET_KEY", "is required when KYC_PROVIDER is stripe");
    if (!connectWebhookSecret) {
      throw new ConfigError("STRIPE_CONNECT_WEBHOOK_SECRET", "is required when KYC_PROVIDER is stripe");
    }
  }
  return { provider, connectWebhookSecret };
}
