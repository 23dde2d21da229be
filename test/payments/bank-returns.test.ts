import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, test } from "node:test";
import { eq } from "drizzle-orm";
import { payments } from "../../src/modules/payments/tables.ts";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";
import { StripeStandIn } from "../helpers/stripe-stand-in.ts";

// Returns and disputes of collected bank debits as Stripe reports them, through the provider
// webhook route, with the Stripe provider talking to the loopback stand-in. The sandbox's own
// returning account is driven end to end in test/journeys/bank-debit.test.ts.

const WEBHOOK_SECRET = "whsec_returnsstandin";
const stand = new StripeStandIn();
let price: any;
let counter = 0;

const fx = useTestApp(
  async () => ({
    KYC_PROVIDER: "sandbox",
    PAYMENTS_PROVIDER: "stripe",
    STRIPE_SECRET_KEY: "sk_test_returnsstandin",
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_PUBLISHABLE_KEY: "pk_test_returnsstandin",
    STRIPE_API_HOST: "127.0.0.1",
    STRIPE_API_PORT: String(await stand.start()),
    STRIPE_API_PROTOCOL: "http",
  }),
  {
    async setUp() {
      price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
        amount: 40,
        currency: "usd",
      });
    },
    afterClose: () => stand.stop(),
  },
);

/** Posts a Stripe event, signed as Stripe signs (v1 = HMAC-SHA256 of "t.payload"). */
async function sendStripeEvent(type: string, object: Record<string, unknown>) {
  const body = JSON.stringify({
    id: `evt_returns_${++counter}`,
    object: "event",
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
  const ts = Math.floor(Date.now() / 1000);
  const signature = createHmac("sha256", WEBHOOK_SECRET).update(`${ts}.${body}`).digest("hex");
  return call(fx.app, "POST", "/providers/stripe/webhooks", {
    raw: body,
    headers: { "stripe-signature": `t=${ts},v1=${signature}` },
  });
}

/**
 * A paid payment and its intent id. The stand-in clears any confirmed payment method by capture, so
 * a `us_bank_account` payment here is collected at the capture: what matters to the lifecycle is
 * that a bank debit's money was collected.
 */
async function paidPayment(method: "card" | "us_bank_account") {
  const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
    price_id: price.id,
    payment_provider: method,
  });
  expectStatus(
    await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, {
      type: "token",
      id: "pm_card_visa",
    }),
    200,
  );
  await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, "paid");
  const [row] = await fx.app.deps.db.select().from(payments).where(eq(payments.id, payment.id));
  return { id: payment.id, intentId: row.intentId! };
}

const read = async (id: string) =>
  expectStatus(
    await call(fx.app, "GET", `/payments/${fx.tenants.app.id}/${id}`, { token: fx.tenants.owner.token }),
    200,
  );

describe("Stripe events that take a collected bank debit back", () => {
  test("charge.dispute.created fails the payment at once, with the dispute's reason", async () => {
    const paid = await paidPayment("us_bank_account");
    const answer = await sendStripeEvent("charge.dispute.created", {
      id: "dp_1",
      object: "dispute",
      charge: "ch_1",
      payment_intent: paid.intentId,
      reason: "debit_not_authorized",
      status: "lost",
    });
    assert.deepEqual(expectStatus(answer, 200), { received: true, duplicate: false });
    const failed = await read(paid.id);
    assert.equal(failed.status, "failed");
    assert.equal(failed.transaction_response.error.code, "dispute_debit_not_authorized");
    assert.equal(failed.transaction_response.error.returned_after_collection, true);
  });

  test("charge.failed after collection (an ACH return) fails the payment with the bank's code", async () => {
    const paid = await paidPayment("us_bank_account");
    const answer = await sendStripeEvent("charge.failed", {
      id: "ch_2",
      object: "charge",
      status: "failed",
      payment_intent: paid.intentId,
      failure_code: "account_closed",
      failure_message: "The bank account has been closed.",
    });
    expectStatus(answer, 200);
    const failed = await read(paid.id);
    assert.equal(failed.status, "failed");
    assert.equal(failed.transaction_response.error.code, "account_closed");
    assert.equal(failed.transaction_response.error.message, "The bank account has been closed.");
  });

  test("payment_intent.payment_failed after success: the sync job reads the intent and fails the payment", async () => {
    const paid = await paidPayment("us_bank_account");
    // Stripe's side: the intent went back to wanting a payment method, with the return's reason.
    const intent = stand.intents.get(paid.intentId)!;
    intent.status = "requires_payment_method";
    intent.last_payment_error = {
      code: "insufficient_funds",
      message: "The account had insufficient funds.",
    };
    expectStatus(await sendStripeEvent("payment_intent.payment_failed", { ...intent }), 200);
    const failed = await eventually(async () => {
      const current = await read(paid.id);
      return current.status === "failed" ? current : undefined;
    });
    assert.equal(failed.transaction_response.error.code, "insufficient_funds");
  });

  test("a card dispute leaves the payment paid (card disputes are contested at the provider)", async () => {
    const paid = await paidPayment("card");
    expectStatus(
      await sendStripeEvent("charge.dispute.created", {
        id: "dp_card",
        object: "dispute",
        payment_intent: paid.intentId,
        reason: "fraudulent",
      }),
      200,
    );
    assert.equal((await read(paid.id)).status, "paid");
  });

  test("a return for an unknown intent, or a repeated one, changes nothing", async () => {
    expectStatus(
      await sendStripeEvent("charge.failed", { id: "ch_x", object: "charge", payment_intent: "pi_unknown" }),
      200,
    );
    const paid = await paidPayment("us_bank_account");
    const event = {
      id: "ch_3",
      object: "charge",
      payment_intent: paid.intentId,
      failure_code: "account_closed",
    };
    expectStatus(await sendStripeEvent("charge.failed", event), 200);
    expectStatus(await sendStripeEvent("charge.failed", event), 200);
    assert.equal((await read(paid.id)).status, "failed");
  });
});
