// The sandbox payment provider's payments (docs/providers.md): its test cards (held, declined, 3-D
// Secure, Stripe's test tokens, refused input; capture, cancel and refunds) and its bank debits
// (settled, failed or returned by the bank after a delay on the provider's clock).
// Idempotency, transfers, outage mode and webhooks: sandbox-transfers.test.ts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { eq } from "drizzle-orm";
import type { SandboxPaymentProvider } from "../../src/platform/providers/payments/sandbox/provider.ts";
import { sandboxEvents } from "../../src/platform/providers/payments/sandbox/tables.ts";
import {
  PaymentDeclinedError,
  type PaymentMethodInput,
} from "../../src/platform/providers/payments/types.ts";
import { card, useSandboxProvider } from "./sandbox-fixtures.ts";

let provider: SandboxPaymentProvider;
const { clock, fx, key, cardIntent } = useSandboxProvider((made) => {
  provider = made;
});

const bank = (accountNumber: string): PaymentMethodInput => ({
  type: "us_bank_account",
  routingNumber: "110000000",
  accountNumber,
  accountHolderName: "Ada Lovelace",
});
const mandate = { ipAddress: "203.0.113.7", userAgent: "test" };

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
