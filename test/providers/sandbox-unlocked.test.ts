import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { and, eq } from "drizzle-orm";
import { drizzleRunner } from "../../src/platform/db/index.ts";
import { SandboxPaymentProvider } from "../../src/platform/providers/payments/sandbox/provider.ts";
import {
  sandboxEvents,
  sandboxIntents,
  sandboxRequests,
} from "../../src/platform/providers/payments/sandbox/tables.ts";
import { onceOnUnchangedIntent } from "../../src/platform/providers/payments/sandbox/unlocked.ts";
import { useTestApp } from "../helpers/fixture.ts";

// The sandbox's confirm and capture write without a transaction (unlocked.ts): the intent is read,
// the change decided, then written in one statement only while nothing changed since the read.
// These tests change things between the read and the write, where a concurrent request would.

const now = new Date("2026-06-01T12:00:00Z");
let provider: SandboxPaymentProvider;
let counter = 0;
const key = () => `unlocked-${Date.now()}-${++counter}`;

const fx = useTestApp(
  {},
  {
    tenants: false,
    async setUp() {
      provider = new SandboxPaymentProvider({
        db: fx.app.deps.db,
        now: () => now,
        publicUrl: "http://shop.test",
      });
    },
  },
);

async function heldIntent() {
  const intent = await provider.createIntent(
    { amount: 1000n, currency: "USD", method: "card" },
    { idempotencyKey: key() },
  );
  const method = { type: "token" as const, id: "pm_card_visa" };
  await provider.confirmIntent(intent.id, { paymentMethod: method }, { idempotencyKey: key() });
  return intent.id;
}

/** A capture the way the provider makes it without a transaction, `meanwhile` run between the read and the write. */
function captureUnlocked(idempotencyKey: string, intentId: string, meanwhile: () => Promise<unknown>) {
  const db = fx.app.deps.db;
  const scope = { account: "", key: idempotencyKey, operation: "capture_intent", params: { intentId } };
  return onceOnUnchangedIntent(drizzleRunner(db), db, scope, "outage", intentId, now, async () => {
    await meanwhile();
    return capture;
  });
}

async function written(intentId: string, idempotencyKey: string) {
  const db = fx.app.deps.db;
  const [intent] = await db.select().from(sandboxIntents).where(eq(sandboxIntents.id, intentId));
  const requests = await db
    .select()
    .from(sandboxRequests)
    .where(and(eq(sandboxRequests.account, ""), eq(sandboxRequests.idempotencyKey, idempotencyKey)));
  const events = await db.select().from(sandboxEvents).where(eq(sandboxEvents.intentId, intentId));
  return { intent, requests, events: events.length };
}

const capture = {
  set: { status: "succeeded", amountReceived: 1000n, amountCapturable: 0n },
  answer: () => "captured",
};

describe("the sandbox's writes without a transaction", () => {
  test("an intent changed after the read is not written: no claim, no event, and the caller is told to lock", async () => {
    const intentId = await heldIntent();
    const idempotencyKey = key();
    const before = await written(intentId, idempotencyKey);
    const db = fx.app.deps.db;
    const result = await captureUnlocked(idempotencyKey, intentId, async () => {
      // Another request changes the intent meanwhile (its label, so no event of its own).
      await db
        .update(sandboxIntents)
        .set({ paymentMethodLabel: "changed" })
        .where(eq(sandboxIntents.id, intentId));
    });
    assert.equal(result, undefined);
    const after = await written(intentId, idempotencyKey);
    assert.equal(after.intent.status, "requires_capture");
    assert.equal(after.intent.paymentMethodLabel, "changed");
    assert.equal(after.requests.length, 0);
    assert.equal(after.events, before.events);
    // The locking way then captures it, once.
    const captured = await provider.captureIntent(intentId, undefined, { idempotencyKey });
    assert.equal(captured.status, "succeeded");
    assert.equal((await written(intentId, idempotencyKey)).requests.length, 1);
  });

  test("a key claimed after the read is not claimed again, and the intent is not changed", async () => {
    const intentId = await heldIntent();
    const idempotencyKey = key();
    const db = fx.app.deps.db;
    const result = await captureUnlocked(idempotencyKey, intentId, async () => {
      await db
        .insert(sandboxRequests)
        .values({ account: "", idempotencyKey, fingerprint: "another request", response: null });
    });
    assert.equal(result, undefined);
    const after = await written(intentId, idempotencyKey);
    assert.equal(after.intent.status, "requires_capture");
    assert.deepEqual(
      after.requests.map((r) => r.fingerprint),
      ["another request"],
    );
  });

  test("with nothing in the way the claim, the change and its event are written together", async () => {
    const intentId = await heldIntent();
    const idempotencyKey = key();
    const before = await written(intentId, idempotencyKey);
    const result = await captureUnlocked(idempotencyKey, intentId, async () => {});
    assert.ok(result && "answer" in result);
    assert.equal(result.answer, "captured");
    assert.equal(result.written?.row.status, "succeeded", "answered with the row as written");
    assert.match(String(result.written?.version), /^\d+$/, "and the version it left");
    const after = await written(intentId, idempotencyKey);
    assert.equal(after.intent.status, "succeeded");
    assert.equal(after.requests.length, 1);
    assert.equal(after.events, before.events + 1);
  });

  test("a capture after the confirm decides on the intent as the confirm wrote it, and reads it only if it moved since", async () => {
    let reads = 0;
    const db = fx.app.deps.db;
    const counting = new Proxy(db, {
      get(target, property, receiver) {
        if (property === "select") reads++;
        return Reflect.get(target, property, receiver);
      },
    });
    const mine = new SandboxPaymentProvider({ db: counting, now: () => now, publicUrl: "http://shop.test" });
    const method = { type: "token" as const, id: "pm_card_visa" };
    const held = async () => {
      const intent = await mine.createIntent(
        { amount: 1000n, currency: "USD", method: "card" },
        { idempotencyKey: key() },
      );
      await mine.confirmIntent(intent.id, { paymentMethod: method }, { idempotencyKey: key() });
      return intent.id;
    };

    const first = await held();
    reads = 0;
    const captured = await mine.captureIntent(first, undefined, { idempotencyKey: key() });
    assert.equal(captured.status, "succeeded");
    assert.equal(captured.amountReceived, 1000n);
    assert.equal(reads, 0, "the capture read nothing: its write held on the version the confirm left");
    assert.equal((await written(first, "")).intent.status, "succeeded");

    // Another connected account's call finds no such intent, known or not.
    const third = await held();
    await assert.rejects(
      mine.captureIntent(third, undefined, { idempotencyKey: key(), connectedAccount: "acct_someone_else" }),
    );
    assert.equal((await written(third, "")).intent.status, "requires_capture");

    // Cancelled by another process after this one confirmed it: the capture's write does not hold
    // on the old version, the intent is read after all, and a cancelled intent is not captured.
    const second = await held();
    await provider.cancelIntent(second, { idempotencyKey: key() });
    reads = 0;
    await assert.rejects(mine.captureIntent(second, undefined, { idempotencyKey: key() }));
    assert.ok(reads > 0, "read after all");
    assert.equal((await written(second, "")).intent.status, "canceled");
  });
});
