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

test("KYC settings are validated at start-up, naming the setting", () => {
  assert.equal(settingOf({ KYC_PROVIDER: "persona" }), "KYC_PROVIDER");
  assert.equal(settingOf({ KYC_PROVIDER: "stripe" }), "STRIPE_SECRET_KEY");
  assert.equal(
    settingOf({ KYC_PROVIDER: "stripe", STRIPE_SECRET_KEY: "sk_test_abc" }),
    "STRIPE_CONNECT_WEBHOOK_SECRET",
  );
  assert.equal(settingOf({ STRIPE_CONNECT_WEBHOOK_SECRET: "nope" }), "STRIPE_CONNECT_WEBHOOK_SECRET");
  assert.equal(
    settingOf({ STRIPE_API_HOST: "127.0.0.1", STRIPE_API_PROTOCOL: "ftp" }),
    "STRIPE_API_PROTOCOL",
  );
  assert.equal(settingOf({ STRIPE_API_HOST: "127.0.0.1", STRIPE_API_PORT: "99999" }), "STRIPE_API_PORT");
  // Unset, it follows the payments provider.
  assert.equal(loadConfig({ SANDBOX: "true" }).kyc.provider, "sandbox");
  const stripe = loadConfig({
    PAYMENTS_PROVIDER: "stripe",
    STRIPE_SECRET_KEY: "sk_test_abc",
    STRIPE_WEBHOOK_SECRET: "whsec_abc",
    STRIPE_CONNECT_WEBHOOK_SECRET: "whsec_def",
  });
  assert.equal(stripe.kyc.provider, "stripe");
  assert.equal(stripe.kyc.connectWebhookSecret, "whsec_def");
});

test("the registry answers the configured provider for both methods and refuses others", () => {
  const db = {} as Database;
  const sandbox = createPaymentProviders(loadConfig({ SANDBOX: "true" }), db, () => new Date());
  assert.equal(sandbox.forMethod("card").id, "sandbox");
  assert.equal(sandbox.forMethod("us_bank_account").id, "sandbox");
  assert.throws(() => sandbox.forMethod("paypal"), { code: "validation_failed" });
  const stripe = createPaymentProviders(
    loadConfig({
      SANDBOX: "true",
      PAYMENTS_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_test_abc",
      STRIPE_WEBHOOK_SECRET: "whsec_abc",
      KYC_PROVIDER: "sandbox",
    }),
    db,
    () => new Date(),
  );
  assert.equal(stripe.forMethod("card").id, "stripe");
  assert.equal(stripe.byId("sandbox").id, "sandbox");
});
