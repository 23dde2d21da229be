import assert from "node:assert/strict";
import { test } from "node:test";
import { ConfigError, loadConfig } from "../../src/config.ts";
import type { Database } from "../../src/platform/db/index.ts";
import { createPaymentProviders } from "../../src/platform/providers/payments/registry.ts";

const settingOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.setting;
  }
  return undefined;
};

test("payment settings are validated and errors name the setting", () => {
  assert.equal(settingOf({ SANDBOX: "true", PAYMENTS_PROVIDER: "paypal" }), "PAYMENTS_PROVIDER");
  assert.equal(settingOf({ SANDBOX: "true", PAYMENTS_PROVIDER: "stripe" }), "STRIPE_SECRET_KEY");
  assert.equal(
    settingOf({ SANDBOX: "true", PAYMENTS_PROVIDER: "stripe", STRIPE_SECRET_KEY: "sk_test_abc" }),
    "STRIPE_WEBHOOK_SECRET",
  );
  assert.equal(settingOf({ SANDBOX: "true", STRIPE_SECRET_KEY: "pk_test_abc" }), "STRIPE_SECRET_KEY");
  assert.equal(settingOf({ SANDBOX: "true", STRIPE_WEBHOOK_SECRET: "nope" }), "STRIPE_WEBHOOK_SECRET");
  // A live server never falls back to the sandbox silently, and a test server takes no live key.
  assert.equal(settingOf({ SANDBOX: "false" }), "STRIPE_SECRET_KEY");
  assert.equal(
    settingOf({
      SANDBOX: "true",
      PAYMENTS_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_live_abc",
      STRIPE_WEBHOOK_SECRET: "whsec_abc",
    }),
    "STRIPE_SECRET_KEY",
  );
  assert.equal(settingOf({ WEBHOOKS_ALLOW_LOOPBACK: "maybe" }), "WEBHOOKS_ALLOW_LOOPBACK");
  assert.equal(settingOf({ SECRETS_MASTER_KEY: "c2hvcnQ=" }), "SECRETS_MASTER_KEY");
  assert.equal(loadConfig({ SANDBOX: "true" }).paymentsProvider, "sandbox");
});

const STRIPE_TEST = {
  SANDBOX: "true",
  PAYMENTS_PROVIDER: "stripe",
  STRIPE_SECRET_KEY: "sk_test_abc",
  STRIPE_WEBHOOK_SECRET: "whsec_abc",
  STRIPE_PUBLISHABLE_KEY: "pk_test_abc",
  // Seller onboarding would follow the payments provider and want its own secret.
  KYC_PROVIDER: "sandbox",
};

test("the hosted checkout's Stripe.js settings are validated and name the setting", () => {
  // The page makes card payment methods with Stripe.js, so Stripe needs the publishable key…
  const { STRIPE_PUBLISHABLE_KEY: _, ...withoutKey } = STRIPE_TEST;
  assert.equal(settingOf(withoutKey), "STRIPE_PUBLISHABLE_KEY");
  // …a publishable one of the server's mode (a secret key in its place is refused, never shown).
  assert.equal(
    settingOf({ ...STRIPE_TEST, STRIPE_PUBLISHABLE_KEY: "sk_test_abc" }),
    "STRIPE_PUBLISHABLE_KEY",
  );
  assert.equal(
    settingOf({ ...STRIPE_TEST, STRIPE_PUBLISHABLE_KEY: "pk_live_abc" }),
    "STRIPE_PUBLISHABLE_KEY",
  );
  assert.equal(settingOf({ SANDBOX: "true", STRIPE_PUBLISHABLE_KEY: "nope" }), "STRIPE_PUBLISHABLE_KEY");
  // Not needed with the sandbox provider.
  assert.equal(loadConfig({ SANDBOX: "true" }).stripePublishableKey, undefined);
  const config = loadConfig(STRIPE_TEST);
  assert.equal(config.stripePublishableKey, "pk_test_abc");
  assert.equal(config.stripeJsUrl, "https://js.stripe.com/v3/");
  assert.equal(config.stripeApi, undefined);
  // Stripe.js comes over https; plain http only from a loopback stand-in.
  assert.equal(settingOf({ STRIPE_JS_URL: "http://js.example.com/v3/" }), "STRIPE_JS_URL");
  assert.equal(settingOf({ STRIPE_JS_URL: "js.stripe.com/v3/" }), "STRIPE_JS_URL");
  assert.equal(settingOf({ STRIPE_JS_URL: "javascript:alert(1)" }), "STRIPE_JS_URL");
  assert.equal(
    loadConfig({ STRIPE_JS_URL: "http://127.0.0.1:9999/v3/" }).stripeJsUrl,
    "http://127.0.0.1:9999/v3/",
  );
  const live = {
    ...STRIPE_TEST,
    SANDBOX: "false",
    SMTP_URL: "smtp://127.0.0.1:2525",
    STRIPE_SECRET_KEY: "sk_live_abc",
    STRIPE_PUBLISHABLE_KEY: "pk_live_abc",
  };
  assert.equal(loadConfig(live).stripeJsUrl, "https://js.stripe.com/v3/");
  assert.equal(settingOf({ ...live, STRIPE_JS_URL: "https://cdn.example.com/v3/" }), "STRIPE_JS_URL");
  assert.equal(settingOf({ ...live, STRIPE_API_HOST: "127.0.0.1" }), "STRIPE_API_HOST");
  assert.equal(settingOf({ STRIPE_API_PORT: "12" }), "STRIPE_API_HOST");
  assert.equal(
    settingOf({ STRIPE_API_HOST: "127.0.0.1", STRIPE_API_PROTOCOL: "ftp" }),
    "STRIPE_API_PROTOCOL",
  );
  assert.equal(settingOf({ STRIPE_API_HOST: "127.0.0.1", STRIPE_API_PORT: "99999" }), "STRIPE_API_PORT");
  assert.deepEqual(
    loadConfig({ STRIPE_API_HOST: "127.0.0.1", STRIPE_API_PORT: "8080", STRIPE_API_PROTOCOL: "http" })
      .stripeApi,
    { host: "127.0.0.1", port: 8080, protocol: "http" },
  );
});

test("the registry answers the configured provider for both methods and refuses others", async () => {
  const database = { db: {} as Database, engine: "pglite" as const };
  const sandbox = await createPaymentProviders(loadConfig({ SANDBOX: "true" }), database, () => new Date());
  assert.equal(sandbox.forMethod("card").id, "sandbox");
  assert.equal(sandbox.forMethod("us_bank_account").id, "sandbox");
  assert.throws(() => sandbox.forMethod("paypal"), { code: "validation_failed" });
  const stripe = await createPaymentProviders(loadConfig(STRIPE_TEST), database, () => new Date());
  assert.equal(stripe.forMethod("card").id, "stripe");
  assert.equal(stripe.byId("sandbox").id, "sandbox");
});

test("KYC settings are validated at start-up, naming the setting", () => {
  assert.equal(settingOf({ KYC_PROVIDER: "persona" }), "KYC_PROVIDER");
  assert.equal(settingOf({ KYC_PROVIDER: "stripe" }), "STRIPE_SECRET_KEY");
  assert.equal(
    settingOf({ KYC_PROVIDER: "stripe", STRIPE_SECRET_KEY: "sk_test_abc" }),
    "STRIPE_CONNECT_WEBHOOK_SECRET",
  );
  assert.equal(settingOf({ STRIPE_CONNECT_WEBHOOK_SECRET: "nope" }), "STRIPE_CONNECT_WEBHOOK_SECRET");
  // Unset, it follows the payments provider.
  assert.equal(loadConfig({ SANDBOX: "true" }).kyc.provider, "sandbox");
  const { KYC_PROVIDER: _, ...followsPayments } = STRIPE_TEST;
  assert.equal(settingOf(followsPayments), "STRIPE_CONNECT_WEBHOOK_SECRET");
  const stripe = loadConfig({ ...followsPayments, STRIPE_CONNECT_WEBHOOK_SECRET: "whsec_def" });
  assert.equal(stripe.kyc.provider, "stripe");
  assert.equal(stripe.kyc.connectWebhookSecret, "whsec_def");
});
