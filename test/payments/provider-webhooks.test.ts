import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { eq } from "drizzle-orm";
import { paymentEvents, payments } from "../../src/modules/payments/tables.ts";
import { sandboxEvents } from "../../src/platform/providers/payments/sandbox/tables.ts";
import { onPostgres } from "../helpers/app.ts";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";

let price: any;
const fx = useTestApp(
  {},
  {
    async setUp() {
      price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, { amount: 11 });
    },
  },
);

async function deliver(eventId: string, tamper = false) {
  const signed = await fx.app.deps.paymentProviders.sandbox.signedEvent(fx.app.deps.db, eventId);
  const body = tamper ? signed.body.replace('"object":"event"', '"object":"evil"') : signed.body;
  return call(fx.app, "POST", "/providers/sandbox/webhooks", { raw: body, headers: signed.headers });
}

async function intentOf(paymentId: string) {
  return eventually(async () => {
    const [row] = await fx.app.deps.db.select().from(payments).where(eq(payments.id, paymentId));
    return row.intentId ?? undefined;
  });
}

describe("inbound provider webhooks", () => {
  test("a signed event is applied once; a duplicate is acknowledged and ignored; a tampered one is refused", async () => {
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
    });
    expectStatus(
      await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, card(CARDS.ok)),
      200,
    );
    await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, "paid");
    const intentId = await intentOf(payment.id);
    const events = await fx.app.deps.db
      .select()
      .from(sandboxEvents)
      .where(eq(sandboxEvents.intentId, intentId));
    assert.ok(events.length > 0);
    const first = expectStatus(await deliver(events[0].id), 200);
    assert.deepEqual(first, { received: true, duplicate: false });
    const again = expectStatus(await deliver(events[0].id), 200);
    assert.deepEqual(again, { received: true, duplicate: true });
    assertProblem(await deliver(events[0].id, true), 400, "validation_failed");
    assertProblem(await call(fx.app, "POST", "/providers/nobody/webhooks", { body: {} }), 404, "not_found");
  });

  test("an event that arrives late cannot move a payment backwards", async () => {
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
    });
    expectStatus(
      await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, card(CARDS.ok)),
      200,
    );
    await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, "paid");
    const intentId = await intentOf(payment.id);
    const events = await fx.app.deps.db
      .select()
      .from(sandboxEvents)
      .where(eq(sandboxEvents.intentId, intentId));
    const moves = () =>
      fx.app.deps.db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, payment.id));
    const before = (await moves()).length;
    // Every event of the intent, oldest first (the authorisation ones are now stale), delivered late.
    for (const event of events) expectStatus(await deliver(event.id), 200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const read = expectStatus(
      await call(fx.app, "GET", `/payments/${fx.tenants.app.id}/${payment.id}`, {
        token: fx.tenants.owner.token,
      }),
      200,
    );
    assert.equal(read.status, "paid");
    assert.equal((await moves()).length, before, "no status change was recorded");
  });
});

describe("idempotent payment creation", {
  skip: !onPostgres && "needs PostgreSQL for real concurrency",
}, () => {
  test("100 concurrent identical POSTs with one key: one payment, one answer, paid with one provider intent", async () => {
    const body = { price_id: price.id, payment_provider: "card" };
    const headers = { "idempotency-key": `burst-${Date.now()}` };
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        call(fx.app, "POST", `/payments/${fx.tenants.app.id}`, {
          token: fx.tenants.owner.token,
          body,
          headers,
        }),
      ),
    );
    const ok = answers.filter((a) => a.status === 201);
    for (const a of answers) assert.ok(a.status === 201 || a.status === 409, a.text);
    assert.ok(ok.length > 0);
    assert.equal(new Set(ok.map((a) => a.text)).size, 1, "every successful answer is the same");
    const created = await fx.app.deps.db.select().from(payments).where(eq(payments.priceId, price.id));
    const ids = new Set(ok.map((a) => a.body.id));
    assert.equal(ids.size, 1);
    const [id] = ids;
    assert.equal(created.filter((p) => p.id === id).length, 1);
    // The one payment is confirmed once and paid with one provider intent.
    expectStatus(await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, id, card(CARDS.ok)), 200);
    await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, id, "paid");
    const intent = await intentOf(id);
    const all = await fx.app.deps.db.select().from(payments).where(eq(payments.intentId, intent));
    assert.equal(all.length, 1, "one provider intent");
    assertProblem(
      await call(fx.app, "POST", `/payments/${fx.tenants.app.id}`, {
        token: fx.tenants.owner.token,
        body: { ...body, payment_provider: "us_bank_account" },
        headers,
      }),
      409,
      "idempotency_key_reused",
    );
  });
});
