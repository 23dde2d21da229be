// The sandbox payment provider beyond one payment (docs/providers.md): idempotent requests,
// transfers to connected accounts the KYC sandbox made (refusals with Stripe's codes, reversals),
// an intent on a connected account, outage mode, and its signed webhooks.
// Its cards and bank debits: sandbox.test.ts.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, test } from "node:test";
import { eq } from "drizzle-orm";
import { SandboxKycProvider } from "../../src/platform/providers/kyc/sandbox.ts";
import { SandboxPaymentProvider } from "../../src/platform/providers/payments/sandbox/provider.ts";
import { sandboxEvents, sandboxIntents } from "../../src/platform/providers/payments/sandbox/tables.ts";
import { TransferRefusedError } from "../../src/platform/providers/payments/types.ts";
import { GOOD_BANK, SELLER_DETAILS } from "../helpers/kyc.ts";
import { card, useSandboxProvider } from "./sandbox-fixtures.ts";

let provider: SandboxPaymentProvider;
const { clock, fx, key, cardIntent } = useSandboxProvider((made) => {
  provider = made;
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
