// The Stripe payment provider against the loopback Stripe stand-in (test/helpers/stripe-stand-in.ts):
// what the official SDK sends for card and bank intents, confirms, captures, refunds, transfers,
// reversals and searches (form fields, Idempotency-Key, Stripe-Account), and how Stripe's answers,
// replays, declines, refusals and outages map to the provider's results and errors.
// Its webhooks: stripe-webhooks.test.ts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { StripePaymentProvider } from "../../src/platform/providers/payments/stripe/provider.ts";
import { PaymentDeclinedError, TransferRefusedError } from "../../src/platform/providers/payments/types.ts";
import { SECRET_KEY, useStripeProvider } from "./stripe-fixtures.ts";

let stripe: StripePaymentProvider;
const stand = useStripeProvider((provider) => {
  stripe = provider;
});

let held = 0;
async function heldCard() {
  const intent = await stripe.createIntent(
    { amount: 1250n, currency: "USD", method: "card", metadata: { payment: "pay_1" } },
    { idempotencyKey: `create-${++held}` },
  );
  return stripe.confirmIntent(
    intent.id,
    { paymentMethod: { type: "token", id: "pm_card_visa" }, returnUrl: "https://shop.test/back" },
    { idempotencyKey: `confirm-${intent.id}` },
  );
}

describe("Stripe provider against the stand-in", () => {
  test("a card intent is created with manual capture, the key and the secret key", async () => {
    const intent = await stripe.createIntent(
      {
        amount: 1250n,
        currency: "USD",
        method: "card",
        metadata: { payment: "pay_1" },
        transferGroup: "pay_1",
      },
      { idempotencyKey: "pay_1:create" },
    );
    const seen = stand.last();
    assert.equal(seen.method, "POST");
    assert.equal(seen.path, "/v1/payment_intents");
    assert.match(String(seen.headers["content-type"]), /application\/x-www-form-urlencoded/);
    assert.equal(seen.headers["idempotency-key"], "pay_1:create");
    assert.equal(seen.headers.authorization, `Bearer ${SECRET_KEY}`);
    assert.equal(seen.headers["stripe-account"], undefined);
    assert.equal(seen.form.get("amount"), "1250");
    assert.equal(seen.form.get("currency"), "usd");
    assert.equal(seen.form.get("capture_method"), "manual");
    assert.equal(seen.form.get("allowed_payment_method_types[0]"), "card");
    assert.equal(seen.form.get("metadata[payment]"), "pay_1");
    assert.equal(seen.form.get("transfer_group"), "pay_1");
    assert.equal(intent.status, "requires_payment_method");
    assert.equal(intent.amount, 1250n);
    assert.equal(intent.captureMethod, "manual");
  });

  test("confirm, capture and refund send the right calls and map the answers", async () => {
    const held = await heldCard();
    const confirm = stand.last();
    assert.equal(confirm.path, `/v1/payment_intents/${held.id}/confirm`);
    assert.equal(confirm.form.get("payment_method"), "pm_card_visa");
    assert.equal(confirm.form.get("return_url"), "https://shop.test/back");
    assert.equal(held.status, "requires_capture");
    assert.equal(held.amountCapturable, 1250n);

    const captured = await stripe.captureIntent(held.id, 1000n, { idempotencyKey: "cap-1" });
    assert.equal(stand.last().path, `/v1/payment_intents/${held.id}/capture`);
    assert.equal(stand.last().form.get("amount_to_capture"), "1000");
    assert.equal(stand.last().headers["idempotency-key"], "cap-1");
    assert.equal(captured.status, "succeeded");
    assert.equal(captured.amountReceived, 1000n);

    const refund = await stripe.refund(
      { intentId: held.id, amount: 400n, reason: "requested_by_customer" },
      { idempotencyKey: "ref-1" },
    );
    assert.equal(stand.last().path, "/v1/refunds");
    assert.equal(stand.last().form.get("payment_intent"), held.id);
    assert.equal(stand.last().form.get("amount"), "400");
    assert.equal(stand.last().form.get("reason"), "requested_by_customer");
    assert.equal(refund.amount, 400n);
    assert.equal(refund.status, "succeeded");
  });

  test("a bank debit is collected at once with the ACH mandate", async () => {
    const intent = await stripe.createIntent(
      { amount: 5000n, currency: "usd", method: "us_bank_account" },
      { idempotencyKey: "bank-1" },
    );
    assert.equal(stand.last().form.get("capture_method"), "automatic");
    assert.equal(stand.last().form.get("allowed_payment_method_types[0]"), "us_bank_account");
    const processing = await stripe.confirmIntent(
      intent.id,
      {
        paymentMethod: {
          type: "us_bank_account",
          routingNumber: "110000000",
          accountNumber: "000123456789",
          accountHolderName: "Ada Lovelace",
        },
        mandate: { ipAddress: "203.0.113.7", userAgent: "Mozilla/5.0" },
      },
      { idempotencyKey: "bank-1-confirm" },
    );
    const form = stand.last().form;
    assert.equal(form.get("payment_method_data[type]"), "us_bank_account");
    assert.equal(form.get("payment_method_data[us_bank_account][routing_number]"), "110000000");
    assert.equal(form.get("payment_method_data[us_bank_account][account_number]"), "000123456789");
    assert.equal(form.get("payment_method_data[us_bank_account][account_holder_type]"), "individual");
    assert.equal(form.get("payment_method_data[billing_details][name]"), "Ada Lovelace");
    assert.equal(form.get("mandate_data[customer_acceptance][type]"), "online");
    assert.equal(form.get("mandate_data[customer_acceptance][online][ip_address]"), "203.0.113.7");
    assert.equal(processing.status, "processing");
    assert.equal(processing.method, "us_bank_account");
  });

  test("a transfer goes to the connected account from the intent's charge", async () => {
    stand.connectedAccounts.set("acct_seller", "active");
    const held = await heldCard();
    await stripe.captureIntent(held.id, undefined, { idempotencyKey: "cap-2" });
    const charge = stand.intents.get(held.id)!.latest_charge;
    const transfer = await stripe.transfer(
      {
        amount: 900n,
        currency: "usd",
        destination: "acct_seller",
        sourceIntentId: held.id,
        transferGroup: "pay_2",
      },
      { idempotencyKey: "pay_2:transfer:seller" },
    );
    const seen = stand.last();
    assert.equal(seen.path, "/v1/transfers");
    assert.equal(seen.headers["idempotency-key"], "pay_2:transfer:seller");
    assert.equal(seen.form.get("destination"), "acct_seller");
    assert.equal(seen.form.get("amount"), "900");
    assert.equal(seen.form.get("source_transaction"), charge);
    assert.equal(seen.form.get("transfer_group"), "pay_2");
    assert.equal(transfer.destination, "acct_seller");
    assert.equal(transfer.amount, 900n);
  });

  test("a transfer Stripe refuses is a TransferRefusedError with Stripe's code; an outage is not", async () => {
    const held = await heldCard();
    await stripe.captureIntent(held.id, undefined, { idempotencyKey: `cap-${held.id}` });
    const transfer = (destination: string, key: string) =>
      stripe.transfer(
        { amount: 100n, currency: "usd", destination, sourceIntentId: held.id },
        { idempotencyKey: key },
      );
    await assert.rejects(transfer("acct_nobody", "refused-1"), (error: unknown) => {
      assert.ok(error instanceof TransferRefusedError);
      assert.equal(error.reason, "resource_missing");
      assert.match(error.message, /No such destination/);
      return true;
    });
    stand.connectedAccounts.set("acct_paused", "inactive");
    await assert.rejects(transfer("acct_paused", "refused-2"), (error: unknown) => {
      assert.ok(error instanceof TransferRefusedError);
      assert.equal(error.reason, "insufficient_capabilities_for_transfer");
      return true;
    });
    stand.down = true;
    try {
      await assert.rejects(transfer("acct_paused", "refused-3"), (error: unknown) => {
        assert.ok(!(error instanceof TransferRefusedError));
        assert.equal((error as { code?: string }).code, "provider_unavailable");
        return true;
      });
    } finally {
      stand.down = false;
    }
  });

  test("a transfer is reversed in full with a transfer reversal, keyed and tagged", async () => {
    stand.connectedAccounts.set("acct_seller", "active");
    const held = await heldCard();
    await stripe.captureIntent(held.id, undefined, { idempotencyKey: `cap-${held.id}` });
    const transfer = await stripe.transfer(
      { amount: 900n, currency: "usd", destination: "acct_seller", sourceIntentId: held.id },
      { idempotencyKey: `transfer-${held.id}` },
    );
    const reversal = await stripe.reverseTransfer(
      transfer.id,
      { metadata: { payment_id: "pay_3", share: "seller" } },
      { idempotencyKey: "pay_3:reverse:seller" },
    );
    const seen = stand.last();
    assert.equal(seen.method, "POST");
    assert.equal(seen.path, `/v1/transfers/${transfer.id}/reversals`);
    assert.equal(seen.headers["idempotency-key"], "pay_3:reverse:seller");
    assert.equal(seen.form.get("amount"), null, "no amount: the whole transfer");
    assert.equal(seen.form.get("metadata[payment_id]"), "pay_3");
    assert.equal(reversal.amount, 900n);
    assert.equal(reversal.transferId, transfer.id);
    assert.equal(stand.transfers.get(transfer.id)?.reversed, true);
    // A repeat with the key is answered as the first, and reverses nothing more.
    const again = await stripe.reverseTransfer(
      transfer.id,
      { metadata: { payment_id: "pay_3", share: "seller" } },
      { idempotencyKey: "pay_3:reverse:seller" },
    );
    assert.equal(again.id, reversal.id);
    assert.equal(stand.transfers.get(transfer.id)?.amount_reversed, 900);
    await assert.rejects(
      stripe.reverseTransfer(transfer.id, {}, { idempotencyKey: "pay_3:reverse:again" }),
      (error: unknown) => error instanceof TransferRefusedError,
    );
  });

  test("a call on a connected account carries Stripe-Account", async () => {
    const intent = await stripe.createIntent(
      { amount: 300n, currency: "usd", method: "card" },
      { idempotencyKey: "direct-1", connectedAccount: "acct_direct" },
    );
    assert.equal(stand.last().headers["stripe-account"], "acct_direct");
    await stripe.getIntent(intent.id, { connectedAccount: "acct_direct" });
    assert.equal(stand.last().method, "GET");
    assert.equal(stand.last().headers["stripe-account"], "acct_direct");
  });

  test("a repeated call with its Idempotency-Key answers the first object, as Stripe replays it", async () => {
    const input = { amount: 700n, currency: "usd", method: "card" as const };
    const first = await stripe.createIntent(input, { idempotencyKey: "twice" });
    const again = await stripe.createIntent(input, { idempotencyKey: "twice" });
    assert.equal(again.id, first.id);
    await assert.rejects(stripe.createIntent({ ...input, amount: 701n }, { idempotencyKey: "twice" }), {
      code: "idempotency_key_reused",
    });
  });

  test("a card error is a typed decline; a wrong state is a state conflict", async () => {
    const intent = await stripe.createIntent(
      { amount: 100n, currency: "usd", method: "card" },
      { idempotencyKey: "d1" },
    );
    const error = await stripe
      .confirmIntent(
        intent.id,
        { paymentMethod: { type: "token", id: "pm_card_chargeDeclined" } },
        {
          idempotencyKey: "d1c",
        },
      )
      .catch((e) => e);
    assert.ok(error instanceof PaymentDeclinedError, String(error));
    assert.equal(error.declineCode, "generic_decline");
    assert.equal(error.intent?.status, "requires_payment_method");
    await assert.rejects(stripe.captureIntent(intent.id, undefined, { idempotencyKey: "d1cap" }), {
      code: "invalid_state_transition",
    });
  });

  test("create-and-confirm is one request with confirm=true: held, declined with its intent, replayed", async () => {
    const input = { amount: 1250n, currency: "USD", method: "card" as const, metadata: { payment: "pay_2" } };
    const before = stand.seen.length;
    const held = await stripe.createAndConfirmIntent(
      input,
      { paymentMethod: { type: "token", id: "pm_card_visa" }, returnUrl: "https://shop.test/back" },
      { idempotencyKey: "pay_2:create-confirm:1" },
    );
    assert.equal(stand.seen.length, before + 1, "one request");
    const seen = stand.last();
    assert.equal(seen.path, "/v1/payment_intents");
    assert.equal(seen.headers["idempotency-key"], "pay_2:create-confirm:1");
    assert.equal(seen.form.get("confirm"), "true");
    assert.equal(seen.form.get("payment_method"), "pm_card_visa");
    assert.equal(seen.form.get("return_url"), "https://shop.test/back");
    assert.equal(seen.form.get("capture_method"), "manual");
    assert.equal(seen.form.get("metadata[payment]"), "pay_2");
    assert.equal(held.status, "requires_capture");
    assert.equal(held.amountCapturable, 1250n);

    const declined = () =>
      stripe
        .createAndConfirmIntent(
          input,
          { paymentMethod: { type: "token", id: "pm_card_chargeDeclined" } },
          { idempotencyKey: "pay_3:create-confirm:1" },
        )
        .catch((e) => e);
    const error = await declined();
    assert.ok(error instanceof PaymentDeclinedError, String(error));
    assert.equal(error.declineCode, "generic_decline");
    assert.equal(error.intent?.status, "requires_payment_method", "the decline carries the intent made");
    const again = await declined();
    assert.equal(again.intent?.id, error.intent?.id, "a repeat is replayed: the same intent");
    const retried = await stripe.confirmIntent(
      error.intent.id,
      { paymentMethod: { type: "token", id: "pm_card_visa" } },
      { idempotencyKey: "pay_3:confirm:2" },
    );
    assert.equal(retried.status, "requires_capture", "the intent made stays payable");
  });

  test("a payment's intents are found by the search of its metadata, nothing made", async () => {
    const made = await stripe.createIntent(
      { amount: 700n, currency: "USD", method: "card", metadata: { payment_id: "pay_searched" } },
      { idempotencyKey: "pay_searched:create" },
    );
    const found = await stripe.intentsOfPayment("pay_searched");
    const seen = stand.last();
    assert.equal(seen.method, "GET");
    assert.equal(seen.path, "/v1/payment_intents/search");
    assert.equal(seen.form.get("query"), "metadata['payment_id']:'pay_searched'");
    assert.deepEqual(
      found.map((intent) => intent.id),
      [made.id],
    );
    assert.deepEqual(await stripe.intentsOfPayment("pay_none"), []);
  });

  test("raw card numbers are never sent to Stripe", async () => {
    const before = stand.seen.length;
    await assert.rejects(
      stripe.confirmIntent(
        "pi_x",
        { paymentMethod: { type: "card", number: "4242424242424242", expMonth: 1, expYear: 2030, cvc: "1" } },
        { idempotencyKey: "raw" },
      ),
      { code: "validation_failed" },
    );
    assert.equal(stand.seen.length, before);
  });

  test("Stripe answering 5xx is provider_unavailable, so the job retries", async () => {
    stand.down = true;
    try {
      await assert.rejects(
        stripe.createIntent({ amount: 100n, currency: "usd", method: "card" }, { idempotencyKey: "down" }),
        { code: "provider_unavailable" },
      );
    } finally {
      stand.down = false;
    }
  });
});
