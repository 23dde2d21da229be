// A card declined by Stripe when the intent is made and confirmed in one request: the decline is
// the payment's, with Stripe's reason, whether Stripe's error names the intent it made or not (the
// authorize job then makes and confirms one the two-call way: a declined card held nothing).
import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestApp } from "../helpers/fixture.ts";
import { expectStatus } from "../helpers/http.ts";
import { confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";
import { StripeStandIn } from "../helpers/stripe-stand-in.ts";

const stand = new StripeStandIn();
let price: { id: string };

const fx = useTestApp(
  async () => ({
    KYC_PROVIDER: "sandbox",
    PAYMENTS_PROVIDER: "stripe",
    STRIPE_SECRET_KEY: "sk_test_declinestandin",
    STRIPE_WEBHOOK_SECRET: "whsec_declinestandin",
    STRIPE_PUBLISHABLE_KEY: "pk_test_declinestandin",
    STRIPE_API_HOST: "127.0.0.1",
    STRIPE_API_PORT: String(await stand.start()),
    STRIPE_API_PROTOCOL: "http",
  }),
  {
    async setUp() {
      price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, { amount: 12 });
    },
    afterClose: () => stand.stop(),
  },
);

async function declinedPayment() {
  const { owner, app } = fx.tenants;
  const payment = await createPayment(fx.app, owner.token, app.id, {
    price_id: price.id,
    payment_provider: "card",
  });
  const before = stand.seen.length;
  expectStatus(
    await confirm(fx.app, owner.token, app.id, payment.id, { type: "token", id: "pm_card_chargeDeclined" }),
    200,
  );
  const failed = await waitForStatus(fx.app, owner.token, app.id, payment.id, "failed");
  assert.equal(failed.transaction_response.error.decline_code, "generic_decline");
  const calls = stand.seen.slice(before).filter((r) => r.path.startsWith("/v1/payment_intents"));
  return calls.map(
    (r) => `${r.path.replace(/pi_[A-Za-z0-9]+/, "{id}")}${r.form.get("confirm") ? " confirm" : ""}`,
  );
}

test("a decline that names its intent is applied from the one request", async () => {
  assert.deepEqual(await declinedPayment(), ["/v1/payment_intents confirm"]);
});

test("a decline that names none: the intent is made and confirmed again the two-call way", async () => {
  stand.declinesNameNoIntent = true;
  try {
    assert.deepEqual(await declinedPayment(), [
      "/v1/payment_intents confirm",
      "/v1/payment_intents",
      "/v1/payment_intents/{id}/confirm",
    ]);
  } finally {
    stand.declinesNameNoIntent = false;
  }
});
