import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, test } from "node:test";
import { eq } from "drizzle-orm";
import { SandboxKycProvider } from "../../src/platform/providers/kyc/sandbox.ts";
import { SandboxPaymentProvider } from "../../src/platform/providers/payments/sandbox/provider.ts";
import { sandboxEvents, sandboxIntents } from "../../src/platform/providers/payments/sandbox/tables.ts";
import {
  PaymentDeclinedError,
  type PaymentMethodInput,
  TransferRefusedError,
} from "../../src/platform/providers/payments/types.ts";
import { FakeClock } from "../helpers/clock.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { GOOD_BANK, SELLER_DETAILS } from "../helpers/kyc.ts";

// The provider's own clock: these tests move it past the sandbox's settle delay.
const clock = new FakeClock(new Date("2026-06-01T12:00:00Z"));
let provider: SandboxPaymentProvider;
let keyCounter = 0;
const key = () => `key-${Date.now()}-${++keyCounter}`;

const card = (number: string): PaymentMethodInput => ({
  type: "card",
  number,
  expMonth: 12,
  expYear: 2030,
  cvc: "123",
});
const bank = (accountNumber: string): PaymentMethodInput => ({
  type: "us_bank_account",
  routingNumber: "110000000",
  accountNumber,
  accountHolderName: "Ada Lovelace",
});
const mandate = { ipAddress: "203.0.113.7", userAgent: "test" };

const fx = useTestApp(
  {},
  {
    tenants: false,
    async setUp() {
      provider = new SandboxPaymentProvider({
        db: fx.app.deps.db,
        now: clock.now,
        publicUrl: "http://shop.test",
        settleAfterMs: 60_000,
      });
    },
  },
);

async function cardIntent(amount = 1250n) {
  return provider.createIntent({ amount, currency: "USD", method: "card" }, { idempotencyKey: key() });
}

describe("sandbox cards", () => {
  test("4242… is authorised and held, then captured", async () => {
    const intent = await cardIntent();
    assert.equal(intent.status, "requires_payment_method");
    assert.equal(intent.captureMethod, "manual");
    assert.equal(intent.currency, "usd");
    const held = await provider.confirmIntent(
      intent.id,
      { paymentMethod: card("4242 4242 4242 4242") },
      { idempotencyKey: key() },
    );
    assert.equal(held.status, "requires_capture");
    assert.equal(held.amountCapturable, 1250n);
    assert.equal(held.paymentMethodLabel, "visa •••• 4242");
    const captured = await provider.captureIntent(intent.id, undefined, { idempotencyKey: key() });
    assert.equal(captured.status, "succeeded");
    assert.equal(captured.amountReceived, 1250n);
    assert.equal(captured.amountCapturable, 0n);
  });

  for (const [number, declineCode] of [
    ["4000000000000002", "generic_decline"],
    ["4000000000009995", "insufficient_funds"],
  ] as const) {
    test(`${number} is declined with ${declineCode} and stays payable`, async () => {
      const intent = await cardIntent();
      const error = await provider
        .confirmIntent(intent.id, { paymentMethod: card(number) }, { idempotencyKey: key() })
        .catch((e) => e);
      assert.ok(error instanceof PaymentDeclinedError, String(error));
      assert.equal(error.code, "payment_declined");
      assert.equal(error.status, 402);
      assert.equal(error.declineCode, declineCode);
      assert.equal(error.intent?.status, "requires_payment_method");
      const again = await provider.getIntent(intent.id);
      assert.equal(again.lastError?.declineCode, declineCode);
      // The shopper may try another card on the same intent.
      const held = await provider.confirmIntent(
        intent.id,
        { paymentMethod: card("4242424242424242") },
        { idempotencyKey: key() },
      );
      assert.equal(held.status, "requires_capture");
      assert.equal(held.lastError, null);
    });
  }

  test("4000 0027 6000 3184 asks for 3-D Secure; passing it holds the card", async () => {
    const intent = await cardIntent();
    const pending = await provider.confirmIntent(
      intent.id,
      { paymentMethod: card("4000002760003184") },
      { idempotencyKey: key() },
    );
    assert.equal(pending.status, "requires_action");
    assert.deepEqual(pending.nextAction, {
      type: "redirect_to_url",
      url: `http://shop.test/sandbox/3ds/${intent.id}`,
      returnUrl: null,
    });
    await assert.rejects(provider.captureIntent(intent.id, undefined, { idempotencyKey: key() }), {
      code: "invalid_state_transition",
    });
    const held = await provider.completeAuthentication(intent.id, true);
    assert.equal(held.status, "requires_capture");
    assert.equal(held.nextAction, null);
  });

  test("a failed 3-D Secure step leaves the intent wanting another payment method", async () => {
    const intent = await cardIntent();
    await provider.confirmIntent(
      intent.id,
      { paymentMethod: card("4000002760003184") },
      { idempotencyKey: key() },
    );
    const failed = await provider.completeAuthentication(intent.id, false);
    assert.equal(failed.status, "requires_payment_method");
    assert.equal(failed.lastError?.code, "payment_intent_authentication_failure");
  });

  test("Stripe's test tokens work as the numbers they stand for", async () => {
    const intent = await cardIntent();
    await assert.rejects(
      provider.confirmIntent(
        intent.id,
        { paymentMethod: { type: "token", id: "pm_card_chargeDeclined" } },
        {
          idempotencyKey: key(),
        },
      ),
      { code: "payment_declined", declineCode: "generic_decline" },
    );
  });

  test("invalid numbers, past expiry and a bank account on a card intent are refused", async () => {
    const intent = await cardIntent();
    await assert.rejects(
      provider.confirmIntent(
        intent.id,
        { paymentMethod: card("4242424242424241") },
        { idempotencyKey: key() },
      ),
      { code: "validation_failed" },
    );
    await assert.rejects(
      provider.confirmIntent(
        intent.id,
        { paymentMethod: { ...card("4242424242424242"), expYear: 2025 } as PaymentMethodInput },
        { idempotencyKey: key() },
      ),
      { code: "validation_failed" },
    );
    await assert.rejects(
      provider.confirmIntent(
        intent.id,
        { paymentMethod: bank("000123456789"), mandate },
        { idempotencyKey: key() },
      ),
      { code: "validation_failed" },
    );
  });

  test("cancel releases a hold; a cancelled intent cannot be captured", async () => {
    const intent = await cardIntent();
    await provider.confirmIntent(
      intent.id,
      { paymentMethod: card("4242424242424242") },
      { idempotencyKey: key() },
    );
    const cancelled = await provider.cancelIntent(intent.id, { idempotencyKey: key() });
    assert.equal(cancelled.status, "canceled");
    assert.equal(cancelled.amountCapturable, 0n);
    await assert.rejects(provider.captureIntent(intent.id, undefined, { idempotencyKey: key() }), {
      code: "invalid_state_transition",
    });
  });

  test("partial capture, refunds up to what was received", async () => {
    const intent = await cardIntent(1000n);
    await provider.confirmIntent(
      intent.id,
      { paymentMethod: card("4242424242424242") },
      { idempotencyKey: key() },
    );
    await assert.rejects(provider.captureIntent(intent.id, 1001n, { idempotencyKey: key() }), {
      code: "validation_failed",
    });
    const captured = await provider.captureIntent(intent.id, 800n, { idempotencyKey: key() });
    assert.equal(captured.amountReceived, 800n);
    const first = await provider.refund({ intentId: intent.id, amount: 300n }, { idempotencyKey: key() });
    assert.equal(first.amount, 300n);
    assert.equal(first.status, "succeeded");
    const rest = await provider.refund({ intentId: intent.id }, { idempotencyKey: key() });
    assert.equal(rest.amount, 500n);
    await assert.rejects(provider.refund({ intentId: intent.id, amount: 1n }, { idempotencyKey: key() }), {
      code: "validation_failed",
    });
  });
});

describe("sandbox bank debits", () => {
  async function bankIntent() {
    const intent = await provider.createIntent(
      { amount: 5000n, currency: "usd", method: "us_bank_account" },
      { idempotencyKey: key() },
    );
    assert.equal(intent.captureMethod, "automatic");
    return intent;
  }

  test("the success account is debited at once and settles later", async () => {
    const intent = await bankIntent();
    const processing = await provider.confirmIntent(
      intent.id,
      { paymentMethod: bank("000123456789"), mandate },
      { idempotencyKey: key() },
    );
    assert.equal(processing.status, "processing");
    assert.equal((await provider.getIntent(intent.id)).status, "processing");
    clock.advance(61_000);
    const settled = await provider.getIntent(intent.id);
    assert.equal(settled.status, "succeeded");
    assert.equal(settled.amountReceived, 5000n);
  });

  test("the failure account fails when it settles (account_closed)", async () => {
    const intent = await bankIntent();
    await provider.confirmIntent(
      intent.id,
      { paymentMethod: bank("000111111116"), mandate },
      { idempotencyKey: key() },
    );
    clock.advance(61_000);
    assert.equal(await provider.settleDue(), 1);
    const failed = await provider.getIntent(intent.id);
    assert.equal(failed.status, "requires_payment_method");
    assert.equal(failed.lastError?.code, "account_closed");
    assert.equal(failed.amountReceived, 0n);
  });

  test("the returning account is collected, then returned by its bank (charge.failed), and cannot be refunded", async () => {
    const intent = await bankIntent();
    await provider.confirmIntent(
      intent.id,
      { paymentMethod: bank("000111111113"), mandate },
      { idempotencyKey: key() },
    );
    clock.advance(61_000);
    const collected = await provider.getIntent(intent.id);
    assert.equal(collected.status, "succeeded");
    assert.equal(collected.amountReceived, 5000n);
    // As long again later, the bank returns it.
    clock.advance(30_000);
    assert.equal((await provider.getIntent(intent.id)).status, "succeeded");
    clock.advance(31_000);
    assert.equal(await provider.settleDue(), 1);
    const returned = await provider.getIntent(intent.id);
    assert.equal(returned.status, "requires_payment_method");
    assert.equal(returned.lastError?.code, "account_closed");
    await assert.rejects(provider.refund({ intentId: intent.id }, { idempotencyKey: key() }), {
      code: "invalid_state_transition",
    });
    const events = await fx.app.deps.db
      .select()
      .from(sandboxEvents)
      .where(eq(sandboxEvents.intentId, intent.id));
    const types = events.map((e) => e.type);
    assert.ok(types.includes("payment_intent.succeeded"));
    assert.ok(types.includes("payment_intent.payment_failed"));
    const chargeFailed = events.find((e) => e.type === "charge.failed");
    assert.ok(chargeFailed, "charge.failed is recorded");
    // Delivered as a webhook, it parses into the reversal of that intent.
    const signed = await provider.signedEvent(fx.app.deps.db, chargeFailed.id);
    const parsed = provider.parseWebhook(signed.body, signed.headers);
    assert.equal(parsed.intent, null);
    assert.deepEqual(parsed.reversal, {
      intentId: intent.id,
      code: "account_closed",
      message: returned.lastError?.message,
    });
  });

  test("a bank debit needs a mandate and a test routing number", async () => {
    const intent = await bankIntent();
    await assert.rejects(
      provider.confirmIntent(intent.id, { paymentMethod: bank("000123456789") }, { idempotencyKey: key() }),
      { code: "validation_failed" },
    );
    await assert.rejects(
      provider.confirmIntent(
        intent.id,
        {
          paymentMethod: { ...bank("000123456789"), routingNumber: "021000021" } as PaymentMethodInput,
          mandate,
        },
        { idempotencyKey: key() },
      ),
      { code: "validation_failed" },
    );
  });
});

describe("sandbox idempotency, transfers, outage, webhooks", () => {
  test("the same key twice makes one intent and answers the same", async () => {
    const idempotencyKey = key();
    const input = { amount: 700n, currency: "usd", method: "card" as const, metadata: { payment: "pay_1" } };
    const [a, b] = await Promise.all([
      provider.createIntent(input, { idempotencyKey }),
      provider.createIntent(input, { idempotencyKey }),
    ]);
    assert.deepEqual(a, b);
    const c = await provider.createIntent(input, { idempotencyKey });
    assert.deepEqual(c, a);
    const rows = await fx.app.deps.db.select().from(sandboxIntents).where(eq(sandboxIntents.amount, 700n));
    assert.equal(rows.length, 1);
    await assert.rejects(provider.createIntent({ ...input, amount: 701n }, { idempotencyKey }), {
      code: "idempotency_key_reused",
    });
  });

  test("a repeated decline answers the same decline without a second attempt", async () => {
    const intent = await cardIntent();
    const idempotencyKey = key();
    const confirm = () =>
      provider.confirmIntent(intent.id, { paymentMethod: card("4000000000000002") }, { idempotencyKey });
    await assert.rejects(confirm(), { code: "payment_declined" });
    await assert.rejects(confirm(), { code: "payment_declined", declineCode: "generic_decline" });
    const failures = await fx.app.deps.db
      .select()
      .from(sandboxEvents)
      .where(eq(sandboxEvents.intentId, intent.id));
    assert.equal(failures.filter((e) => e.type === "payment_intent.payment_failed").length, 1);
  });

  test("a repeated capture captures once", async () => {
    const intent = await cardIntent();
    await provider.confirmIntent(
      intent.id,
      { paymentMethod: card("4242424242424242") },
      { idempotencyKey: key() },
    );
    const idempotencyKey = key();
    const a = await provider.captureIntent(intent.id, undefined, { idempotencyKey });
    const b = await provider.captureIntent(intent.id, undefined, { idempotencyKey });
    assert.deepEqual(a, b);
  });

  /** A connected account the KYC sandbox made and verified, as the widget's jobs make them. */
  async function onboardedAccount(reference: string) {
    const kyc = new SandboxKycProvider(fx.app.deps.db);
    const account = await kyc.createAccount(
      { reference, type: "custom", email: null, country: "US" },
      `${reference}-create`,
    );
    const { tos: _tos, ...details } = SELLER_DETAILS;
    await kyc.submitDetails(account.id, { ...details, tos_ip: "203.0.113.9" }, `${reference}-details`);
    await kyc.addBankAccount(account.id, GOOD_BANK, `${reference}-bank`);
    await kyc.uploadIdentityDocument(
      account.id,
      { filename: "passport.png", content_type: "image/png", content: Buffer.from("png") },
      `${reference}-document`,
    );
    assert.equal((await kyc.retrieveAccount(account.id)).payouts_enabled, true);
    return { kyc, id: account.id };
  }

  async function capturedIntent(amount = 1000n) {
    const intent = await cardIntent(amount);
    await provider.confirmIntent(
      intent.id,
      { paymentMethod: card("4242424242424242") },
      { idempotencyKey: key() },
    );
    return intent;
  }

  test("transfers to a connected account, never more than the charge", async () => {
    const seller = await onboardedAccount(`kyc_transfer_${key()}`);
    const intent = await capturedIntent();
    const transferKey = key();
    const input = { amount: 600n, currency: "usd", destination: seller.id, sourceIntentId: intent.id };
    await assert.rejects(provider.transfer(input, { idempotencyKey: key() }), {
      code: "invalid_state_transition",
    });
    await provider.captureIntent(intent.id, undefined, { idempotencyKey: key() });
    const transfer = await provider.transfer(input, { idempotencyKey: transferKey });
    assert.equal(transfer.destination, seller.id);
    assert.equal(transfer.amount, 600n);
    assert.deepEqual(await provider.transfer(input, { idempotencyKey: transferKey }), transfer);
    await assert.rejects(provider.transfer({ ...input, amount: 401n }, { idempotencyKey: key() }), {
      code: "validation_failed",
    });
  });

  test("a destination the sandbox never made, or one that cannot receive, is refused with Stripe's codes", async () => {
    const intent = await capturedIntent();
    await provider.captureIntent(intent.id, undefined, { idempotencyKey: key() });
    const input = { amount: 100n, currency: "usd", sourceIntentId: intent.id };
    // A well-formed id the sandbox did not make is refused like any other unknown account.
    for (const destination of ["acct_seller1", "bob"]) {
      await assert.rejects(
        provider.transfer({ ...input, destination }, { idempotencyKey: key() }),
        (error) => {
          assert.ok(error instanceof TransferRefusedError);
          assert.equal(error.reason, "resource_missing");
          return true;
        },
      );
    }
    const kyc = new SandboxKycProvider(fx.app.deps.db);
    const fresh = await kyc.createAccount(
      { reference: `kyc_fresh_${key()}`, type: "custom", email: null, country: "US" },
      "create",
    );
    await assert.rejects(provider.transfer({ ...input, destination: fresh.id }, { idempotencyKey: key() }), {
      reason: "insufficient_capabilities_for_transfer",
    });
    // Paused payouts refuse; resumed, the same request (same key: a refusal kept nothing) goes through.
    const seller = await onboardedAccount(`kyc_paused_${key()}`);
    await seller.kyc.pausePayouts(seller.id, true, "pause-1");
    const pausedKey = key();
    await assert.rejects(
      provider.transfer({ ...input, destination: seller.id }, { idempotencyKey: pausedKey }),
      {
        reason: "insufficient_capabilities_for_transfer",
      },
    );
    assert.equal(
      (await seller.kyc.retrieveAccount(seller.id)).requirements.disabled_reason,
      "platform_paused",
    );
    await seller.kyc.pausePayouts(seller.id, false, "resume-1");
    const made = await provider.transfer({ ...input, destination: seller.id }, { idempotencyKey: pausedKey });
    assert.equal(made.destination, seller.id);
  });

  test("a transfer is reversed once in full, and reads as Stripe's transfer object", async () => {
    const seller = await onboardedAccount(`kyc_reverse_${key()}`);
    const intent = await capturedIntent();
    await provider.captureIntent(intent.id, undefined, { idempotencyKey: key() });
    const group = `pay_${key()}`;
    const transfer = await provider.transfer(
      {
        amount: 700n,
        currency: "usd",
        destination: seller.id,
        sourceIntentId: intent.id,
        transferGroup: group,
        metadata: { share: "seller" },
      },
      { idempotencyKey: key() },
    );
    const reverseKey = key();
    const reversal = await provider.reverseTransfer(transfer.id, {}, { idempotencyKey: reverseKey });
    assert.equal(reversal.amount, 700n);
    assert.deepEqual(
      await provider.reverseTransfer(transfer.id, {}, { idempotencyKey: reverseKey }),
      reversal,
    );
    await assert.rejects(provider.reverseTransfer(transfer.id, {}, { idempotencyKey: key() }), {
      reason: "transfer_already_reversed",
    });
    const [listed] = await provider.listTransfers({ transferGroup: group });
    assert.equal(listed.id, transfer.id);
    assert.equal(listed.object, "transfer");
    assert.equal(listed.amount, 700);
    assert.equal(listed.amount_reversed, 700);
    assert.equal(listed.reversed, true);
    assert.equal(listed.destination, seller.id);
    assert.equal(listed.transfer_group, group);
    assert.deepEqual(listed.metadata, { share: "seller" });
    assert.deepEqual(
      listed.reversals.data.map((r) => [r.id, r.amount, r.transfer]),
      [[reversal.id, 700, transfer.id]],
    );
  });

  test("an intent on a connected account is invisible from the platform", async () => {
    const intent = await provider.createIntent(
      { amount: 100n, currency: "usd", method: "card" },
      { idempotencyKey: key(), connectedAccount: "acct_direct" },
    );
    await assert.rejects(provider.getIntent(intent.id), { code: "not_found" });
    assert.equal((await provider.getIntent(intent.id, { connectedAccount: "acct_direct" })).id, intent.id);
  });

  test("outage mode fails every call as provider_unavailable, shared through the database", async () => {
    const other = new SandboxPaymentProvider({ db: fx.app.deps.db, now: clock.now, publicUrl: "http://x" });
    const refusedKey = key();
    const input = { amount: 1n, currency: "usd", method: "card" as const };
    const open = await cardIntent();
    const cancelKey = key();
    await provider.setOutage(true);
    try {
      await assert.rejects(cardIntent(), { code: "provider_unavailable", status: 502 });
      await assert.rejects(other.createIntent(input, { idempotencyKey: refusedKey }), {
        code: "provider_unavailable",
      });
      // A call on an existing intent too (its outage check is part of claiming the key).
      await assert.rejects(other.cancelIntent(open.id, { idempotencyKey: cancelKey }), {
        code: "provider_unavailable",
      });
    } finally {
      await provider.setOutage(false);
    }
    assert.equal((await cardIntent()).status, "requires_payment_method");
    // A refused call wrote nothing, its key included: the same request now goes through.
    assert.equal((await other.createIntent(input, { idempotencyKey: refusedKey })).amount, 1n);
    assert.equal((await other.cancelIntent(open.id, { idempotencyKey: cancelKey })).status, "canceled");
  });

  test("every status change is an event whose signed webhook verifies; a tampered one does not", async () => {
    const intent = await cardIntent();
    await provider.confirmIntent(
      intent.id,
      { paymentMethod: card("4242424242424242") },
      { idempotencyKey: key() },
    );
    const events = await fx.app.deps.db
      .select()
      .from(sandboxEvents)
      .where(eq(sandboxEvents.intentId, intent.id));
    assert.deepEqual(events.map((e) => e.type).sort(), [
      "payment_intent.amount_capturable_updated",
      "payment_intent.created",
    ]);
    const held = events.find((e) => e.type === "payment_intent.amount_capturable_updated")!;
    const { body, headers } = await provider.signedEvent(fx.app.deps.db, held.id);
    // Checked with an independent HMAC, the way a receiver would.
    const [tPart, v1Part] = headers["sandbox-signature"].split(",");
    const ts = tPart.slice(2);
    assert.equal(
      v1Part.slice(3),
      createHmac("sha256", provider.webhookSecret).update(`${ts}.${body}`).digest("hex"),
    );
    const event = provider.parseWebhook(Buffer.from(body), headers);
    assert.equal(event.type, "payment_intent.amount_capturable_updated");
    assert.equal(event.intent?.id, intent.id);
    assert.equal(event.intent?.status, "requires_capture");
    assert.equal(event.intent?.amount, 1250n);
    assert.throws(() => provider.parseWebhook(body.replace("1250", "1"), headers), {
      code: "validation_failed",
    });
    assert.throws(() => provider.parseWebhook(body, {}), { code: "validation_failed" });
  });
});
