import assert from "node:assert/strict";
import { test } from "node:test";
import { sql } from "drizzle-orm";
import type { Deps } from "../../src/deps.ts";
import { openPayment } from "../../src/modules/payments/create.ts";
import { PREPARE_INTENT_JOB } from "../../src/modules/payments/job-names.ts";
import { WEBHOOK_DELIVERY_JOB } from "../../src/modules/webhooks/jobs.ts";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";
import { Receiver, waitForDeliveries } from "../helpers/webhooks.ts";

// A new payment is written by one statement (the payment, its first event, the `payment.pending`
// deliveries and their jobs): these check that each part is there, that nothing else is queued (the
// provider intent is made by the confirm's job), and that a part that fails leaves none of the others.

let price: { id: string };
const fx = useTestApp(
  { WEBHOOKS_ALLOW_LOOPBACK: "true" },
  {
    async setUp() {
      price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
        amount: 20,
        currency: "usd",
      });
    },
  },
);

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const result = await fx.app.deps.db.execute(query);
  return ((result as { rows?: unknown[] }).rows ?? result) as T[];
}

// A payment's prepare-intent jobs (queued by a create until the confirm made the intent): in the
// outbox, or already moved into pg-boss by the relay.
const intentJobs = (paymentId: string) =>
  rows<{ n: number }>(
    sql`select (select count(*) from pgboss.job where name = ${PREPARE_INTENT_JOB} and data->>'paymentId' = ${paymentId})
      + (select count(*) from job_outbox where name = ${PREPARE_INTENT_JOB} and data->>'paymentId' = ${paymentId}) as n`,
  ).then(([row]) => Number(row.n));

test("a new payment has its event and its payment.pending delivery; its confirm makes the intent", async () => {
  const receiver = new Receiver();
  const other = new Receiver();
  try {
    const subscribed = expectStatus(
      await call(fx.app, "POST", `/webhooks/${fx.tenants.app.id}`, {
        token: fx.tenants.owner.token,
        body: { url: await receiver.start(), events: ["payment.*"] },
      }),
      201,
    );
    const unsubscribed = expectStatus(
      await call(fx.app, "POST", `/webhooks/${fx.tenants.app.id}`, {
        token: fx.tenants.owner.token,
        body: { url: await other.start(), events: ["kyc.updated"] },
      }),
      201,
    );
    const payment = await createPayment(fx.app, fx.tenants.developer.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
    });
    assert.equal(payment.status, "pending");
    assert.equal(payment.app.id, fx.tenants.app.id);
    assert.equal(payment.app.permissions.can_edit, true);
    assert.equal(payment.price.id, price.id);

    const events = await rows<{
      from_status: string | null;
      to_status: string;
      actor: string;
      reason: string;
    }>(
      sql`select from_status, to_status, actor, reason from payment_events where payment_id = ${payment.id}`,
    );
    assert.deepEqual(events, [
      {
        from_status: null,
        to_status: "pending",
        actor: `user:${fx.tenants.developer.user.id}`,
        reason: "created",
      },
    ]);
    assert.equal(await intentJobs(payment.id), 0);

    const [delivery] = await waitForDeliveries(
      fx.app,
      fx.tenants.owner.token,
      fx.tenants.app.id,
      subscribed.id,
      (d) => d.some((x) => x.event.type === "payment.pending" && x.status === "succeeded"),
    );
    assert.equal(delivery.event.type, "payment.pending");
    const pending = receiver.received
      .map((hit) => JSON.parse(hit.body))
      .find((body) => body.type === "payment.pending");
    assert.deepEqual(pending?.data, {
      id: payment.id,
      status: "pending",
      previous_status: null,
      reason: "created",
      sequence: 1,
    });
    const none = await call(fx.app, "GET", `/webhooks/${fx.tenants.app.id}/${unsubscribed.id}/deliveries`, {
      token: fx.tenants.owner.token,
    });
    assert.deepEqual(expectStatus(none, 200), []);
    assert.equal(other.received.length, 0);

    // No provider was asked for anything until the payment is confirmed; then its job makes the
    // intent and holds the card with it.
    const intentOf = async () =>
      (
        await rows<{ intent_id: string | null }>(sql`select intent_id from payments where id = ${payment.id}`)
      )[0].intent_id;
    assert.equal(await intentOf(), null);
    expectStatus(
      await confirm(fx.app, fx.tenants.developer.token, fx.tenants.app.id, payment.id, card(CARDS.ok)),
      200,
    );
    // Paid, so that none of its events is still being written when the next test counts them.
    await waitForStatus(fx.app, fx.tenants.developer.token, fx.tenants.app.id, payment.id, "paid");
    const intentId = await eventually(async () => (await intentOf()) ?? undefined);
    const intent = await fx.app.deps.paymentProviders.sandbox.getIntent(intentId);
    assert.equal(intent.metadata.payment_id, payment.id);
    assert.notEqual(intent.status, "requires_payment_method");
  } finally {
    await receiver.stop();
    await other.stop();
  }
});

test("a part of the write that fails leaves no payment, event or job behind", async () => {
  // An endpoint listens, so the statement writes a delivery and its job.
  expectStatus(
    await call(fx.app, "POST", `/webhooks/${fx.tenants.app.id}`, {
      token: fx.tenants.owner.token,
      body: { url: "http://127.0.0.1:9/hooks", events: ["payment.pending"] },
    }),
    201,
  );
  const count = async () =>
    (
      await rows<{ n: number }>(
        sql`select count(*)::int as n from payments where app_id = ${fx.tenants.app.id}`,
      )
    )[0].n;
  const before = await count();
  const jobCount = async () =>
    (
      await rows<{ n: number }>(
        sql`select (select count(*) from pgboss.job where name = ${WEBHOOK_DELIVERY_JOB})
          + (select count(*) from job_outbox) + (select count(*) from webhook_events) as n`,
      )
    )[0].n;
  const jobsBefore = Number(await jobCount());
  // The delivery's job part is the last one written, and it fails (a job without a queue name
  // breaks the outbox's NOT NULL): the whole statement does.
  const failing: Deps = {
    ...fx.app.deps,
    jobs: {
      ...fx.app.deps.jobs,
      sendPartTemplate: () => sql`insert into "job_outbox" ("name", "data") values (null, '{}')`,
    },
  };
  await assert.rejects(
    openPayment(failing, "shopper", fx.tenants.app.id, { price_id: price.id, payment_provider: "card" }),
    (error: Error & { cause?: Error }) =>
      /null value in column "name"/.test(`${error.message} ${error.cause?.message}`),
  );
  assert.equal(await count(), before);
  assert.equal(Number(await jobCount()), jobsBefore);
  const orphans = await rows<{ n: number }>(
    sql`select count(*)::int as n from payment_events e where not exists (select 1 from payments p where p.id = e.payment_id)`,
  );
  assert.equal(orphans[0].n, 0);
});
