// The Stripe payment provider's webhooks: a raw body signed with Stripe's scheme (written out here
// independently of the SDK) is verified and parsed, charge failures and disputes into the reversal
// of their intent, and a tampered body, another secret or no signature is refused.
// The provider's calls to Stripe: stripe.test.ts.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, test } from "node:test";
import type { StripePaymentProvider } from "../../src/platform/providers/payments/stripe/provider.ts";
import { useStripeProvider, WEBHOOK_SECRET } from "./stripe-fixtures.ts";

let stripe: StripePaymentProvider;
useStripeProvider((provider) => {
  stripe = provider;
});

describe("Stripe webhooks", () => {
  const payload = JSON.stringify({
    id: "evt_1",
    object: "event",
    type: "payment_intent.succeeded",
    created: Math.floor(Date.now() / 1000),
    account: "acct_seller",
    data: {
      object: {
        id: "pi_1",
        object: "payment_intent",
        status: "succeeded",
        amount: 1250,
        amount_received: 1250,
        currency: "usd",
        capture_method: "manual",
        payment_method_types: ["card"],
      },
    },
  });
  // Stripe's scheme, written out independently of the SDK: v1 = HMAC-SHA256(secret, "t.payload").
  const signature = (body: string, secret = WEBHOOK_SECRET) => {
    const ts = Math.floor(Date.now() / 1000);
    return `t=${ts},v1=${createHmac("sha256", secret).update(`${ts}.${body}`).digest("hex")}`;
  };

  test("a correctly signed raw body is verified and parsed", () => {
    const event = stripe.parseWebhook(Buffer.from(payload), { "stripe-signature": signature(payload) });
    assert.equal(event.id, "evt_1");
    assert.equal(event.type, "payment_intent.succeeded");
    assert.equal(event.account, "acct_seller");
    assert.equal(event.intent?.status, "succeeded");
    assert.equal(event.intent?.amountReceived, 1250n);
  });

  test("charge.failed and charge.dispute.created parse into the reversal of their intent", () => {
    const event = (type: string, object: Record<string, unknown>) => {
      const body = JSON.stringify({ id: "evt_r", object: "event", type, created: 1, data: { object } });
      return stripe.parseWebhook(body, { "stripe-signature": signature(body) });
    };
    const returned = event("charge.failed", {
      id: "ch_1",
      object: "charge",
      payment_intent: "pi_9",
      failure_code: "account_closed",
      failure_message: "The bank account has been closed.",
    });
    assert.equal(returned.intent, null);
    assert.deepEqual(returned.reversal, {
      intentId: "pi_9",
      code: "account_closed",
      message: "The bank account has been closed.",
    });
    const disputed = event("charge.dispute.created", {
      id: "dp_1",
      object: "dispute",
      payment_intent: { id: "pi_8" },
      reason: "debit_not_authorized",
    });
    assert.equal(disputed.reversal?.intentId, "pi_8");
    assert.equal(disputed.reversal?.code, "dispute_debit_not_authorized");
    // An intent event, or a charge event with no intent, is no reversal.
    assert.equal(stripe.parseWebhook(payload, { "stripe-signature": signature(payload) }).reversal, null);
    assert.equal(event("charge.failed", { id: "ch_2", object: "charge" }).reversal, null);
  });

  test("a tampered body, another secret or no signature is refused", () => {
    const header = signature(payload);
    const tampered = payload.replace('"amount":1250', '"amount":1');
    assert.throws(() => stripe.parseWebhook(tampered, { "stripe-signature": header }), {
      code: "validation_failed",
    });
    assert.throws(
      () => stripe.parseWebhook(payload, { "stripe-signature": signature(payload, "whsec_other") }),
      { code: "validation_failed" },
    );
    assert.throws(() => stripe.parseWebhook(payload, {}), { code: "validation_failed" });
  });
});
