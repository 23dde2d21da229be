// The sandbox's create-and-confirm (Stripe's `confirm: true` on the create): one request that
// must leave what `createIntent` then `confirmIntent` leave (the intent, its events, the answer or
// the decline), in one statement where they took three, keyed as one request.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { eq, sql } from "drizzle-orm";
import { drizzleRunner, type Runner } from "../../src/platform/db/index.ts";
import { SandboxPaymentProvider } from "../../src/platform/providers/payments/sandbox/provider.ts";
import { sandboxEvents, sandboxIntents } from "../../src/platform/providers/payments/sandbox/tables.ts";
import {
  type ConfirmInput,
  PaymentDeclinedError,
  type ProviderIntent,
} from "../../src/platform/providers/payments/types.ts";
import { useTestApp } from "../helpers/fixture.ts";

const now = new Date("2026-06-01T12:00:00Z");
let provider: SandboxPaymentProvider;
let statements = 0;
let counter = 0;
const key = () => `create-confirm-${Date.now()}-${++counter}`;

const fx = useTestApp(
  {},
  {
    tenants: false,
    async setUp() {
      const run = drizzleRunner(fx.app.deps.db);
      const counted: Runner = (statement) => {
        statements++;
        return run(statement);
      };
      provider = new SandboxPaymentProvider({
        db: fx.app.deps.db,
        run: counted,
        now: () => now,
        publicUrl: "http://shop.test",
      });
    },
  },
);

const input = (marker: string) => ({
  amount: 1250n,
  currency: "USD",
  method: "card" as const,
  metadata: { marker },
});

/** A card made into a sandbox payment method, as the confirm route makes it. */
function madeCard(number: string): ConfirmInput {
  const made = provider.makePaymentMethod({ type: "card", number, expMonth: 12, expYear: 2030, cvc: "123" });
  assert.ok(typeof made !== "string", String(made));
  return { paymentMethod: { type: "token", id: made.id } };
}

/** The intent's event types, sorted: both of a call's events bear the same time. */
async function eventsOf(intentId: string) {
  const rows = await fx.app.deps.db
    .select({ type: sandboxEvents.type })
    .from(sandboxEvents)
    .where(eq(sandboxEvents.intentId, intentId));
  return rows.map((row) => row.type).sort();
}

async function intentsMarked(marker: string) {
  return fx.app.deps.db
    .select()
    .from(sandboxIntents)
    .where(sql`${sandboxIntents.metadata}->>'marker' = ${marker}`);
}

const declineOf = (promise: Promise<ProviderIntent>) =>
  promise.then(
    () => assert.fail("declined"),
    (error: unknown) => {
      assert.ok(error instanceof PaymentDeclinedError, String(error));
      return error;
    },
  );

describe("create and confirm in one request", () => {
  test("a held card: the intent, its events and the answer of the two calls, in one statement", async () => {
    const confirm = madeCard("4242424242424242");
    const twoCalls = await provider.createIntent(input("two-calls"), { idempotencyKey: key() });
    const heldByTwo = await provider.confirmIntent(twoCalls.id, confirm, { idempotencyKey: key() });

    statements = 0;
    const held = await provider.createAndConfirmIntent(input("one-call"), confirm, { idempotencyKey: key() });
    assert.equal(statements, 1, "one write: the payment method's id says what it leads to");
    const { id, ...rest } = held;
    const { id: _, ...restByTwo } = heldByTwo;
    assert.deepEqual({ ...rest, metadata: {} }, { ...restByTwo, metadata: {} });
    assert.equal(held.status, "requires_capture");
    assert.equal(held.amountCapturable, 1250n);
    assert.deepEqual(await eventsOf(id), await eventsOf(twoCalls.id), "the same events");
    assert.equal((await eventsOf(id)).length, 2);
    assert.equal((await intentsMarked("one-call")).length, 1);

    // The capture decides on the intent as written (its version answered by the write).
    const [row] = await fx.app.deps.db
      .select({ version: sql<string>`${sandboxIntents}.xmin::text` })
      .from(sandboxIntents)
      .where(eq(sandboxIntents.id, id));
    assert.equal(
      (provider as unknown as { written: Map<string, { version: string }> }).written.get(id)?.version,
      row.version,
    );
    statements = 0;
    const captured = await provider.captureIntent(id, undefined, { idempotencyKey: key() });
    assert.equal(captured.status, "succeeded");
    assert.equal(statements, 1, "the capture's write alone");
  });

  test("a Stripe test token needs no read: one statement", async () => {
    statements = 0;
    const held = await provider.createAndConfirmIntent(
      input("token"),
      { paymentMethod: { type: "token", id: "pm_card_visa" } },
      { idempotencyKey: key() },
    );
    assert.equal(held.status, "requires_capture");
    assert.equal(statements, 1);
  });

  test("the same key again answers the same intent and outcome, and makes nothing more", async () => {
    const confirm = madeCard("4242424242424242");
    const once = key();
    const first = await provider.createAndConfirmIntent(input("repeat"), confirm, { idempotencyKey: once });
    const again = await provider.createAndConfirmIntent(input("repeat"), confirm, { idempotencyKey: once });
    assert.deepEqual(again, first);
    assert.equal((await intentsMarked("repeat")).length, 1);
    const other = await provider
      .createAndConfirmIntent(input("repeat-other"), confirm, { idempotencyKey: once })
      .catch((error) => error);
    assert.equal(other.code, "idempotency_key_reused", "the key of another request is refused");
  });

  test("a decline carries the made intent, which stays payable; a repeat is the same decline", async () => {
    const confirm = madeCard("4000000000000002");
    const once = key();
    const declined = await declineOf(
      provider.createAndConfirmIntent(input("declined"), confirm, { idempotencyKey: once }),
    );
    assert.equal(declined.declineCode, "generic_decline");
    assert.equal(declined.intent?.status, "requires_payment_method");
    assert.equal(declined.intent?.lastError?.declineCode, "generic_decline");
    const repeated = await declineOf(
      provider.createAndConfirmIntent(input("declined"), confirm, { idempotencyKey: once }),
    );
    assert.equal(repeated.intent?.id, declined.intent?.id);
    assert.equal((await intentsMarked("declined")).length, 1);
    const held = await provider.confirmIntent(declined.intent!.id, madeCard("4242424242424242"), {
      idempotencyKey: key(),
    });
    assert.equal(held.status, "requires_capture");
  });

  test("3-D Secure: the intent asks for the step on its own page", async () => {
    const waiting = await provider.createAndConfirmIntent(input("3ds"), madeCard("4000002760003184"), {
      idempotencyKey: key(),
    });
    assert.equal(waiting.status, "requires_action");
    assert.equal(waiting.nextAction?.url, `http://shop.test/sandbox/3ds/${waiting.id}`);
  });

  test("a refused method or an outage writes nothing", async () => {
    const refused = await provider
      .createAndConfirmIntent(
        input("refused"),
        {
          paymentMethod: {
            type: "us_bank_account",
            routingNumber: "110000000",
            accountNumber: "000123456789",
            accountHolderName: "Ada",
          },
          mandate: { ipAddress: "203.0.113.7", userAgent: "test" },
        },
        { idempotencyKey: key() },
      )
      .catch((error) => error);
    assert.equal(refused.code, "validation_failed");
    await provider.setOutage(true);
    try {
      const down = await provider
        .createAndConfirmIntent(input("outage"), madeCard("4242424242424242"), {
          idempotencyKey: key(),
        })
        .catch((error) => error);
      assert.equal(down.code, "provider_unavailable");
    } finally {
      await provider.setOutage(false);
    }
    assert.equal((await intentsMarked("refused")).length, 0);
    assert.equal((await intentsMarked("outage")).length, 0);
  });
});
