// A card's hold is written in one statement (the move, its event, ledger entries, webhook event,
// each listening endpoint's delivery and the next job), or in a transaction when the statement
// cannot be made (test/payments/moves-listened.test.ts). Either way the app sees the same: the
// timeline, the event log with each event's sequence, and a delivery for every endpoint that
// subscribed, none for others.
import assert from "node:assert/strict";
import { test } from "node:test";
import { sql } from "drizzle-orm";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";

const fx = useTestApp({ WEBHOOKS_ALLOW_LOOPBACK: "true" });
const owner = () => fx.tenants.owner.token;
const appId = () => fx.tenants.app.id;

async function paidPayment() {
  const price = await createPrice(fx.app, owner(), appId());
  const created = await createPayment(fx.app, owner(), appId(), {
    price_id: price.id,
    payment_provider: "card",
  });
  expectStatus(await confirm(fx.app, owner(), appId(), created.id, card(CARDS.ok)), 200);
  await waitForStatus(fx.app, owner(), appId(), created.id, "paid");
  return created.id as string;
}

async function endpoint(events: string[]) {
  const made = expectStatus(
    await call(fx.app, "POST", `/webhooks/${appId()}`, {
      token: owner(),
      // Nothing listens there: only the deliveries' records are looked at.
      body: { url: "http://127.0.0.1:9/hooks", events },
    }),
    201,
  );
  return made.id as string;
}

async function deliveredTypes(endpointId: string, paymentId: string) {
  const deliveries = expectStatus(
    await call(fx.app, "GET", `/webhooks/${appId()}/${endpointId}/deliveries?limit=100`, { token: owner() }),
    200,
  );
  return deliveries
    .filter((d: any) => JSON.parse(d.request_body).data.id === paymentId)
    .map((d: any) => d.event.type)
    .sort();
}

async function paymentEvents(paymentId: string) {
  const events = expectStatus(
    await call(fx.app, "GET", `/events/${appId()}?limit=100`, { token: owner() }),
    200,
  );
  return events
    .filter((e: any) => e.data.id === paymentId)
    .map((e: any) => [e.type, e.data.previous_status, e.data.status, e.data.sequence, e.data.reason])
    .reverse();
}

const TIMELINE = [
  ["payment.pending", null, "pending", 1, "created"],
  ["payment.hold", "pending", "hold", 2, "card authorised"],
  ["payment.paid", "hold", "paid", 3, "captured and transferred"],
];

test("with no endpoint, the hold's event log and timeline read as ever", async () => {
  const paymentId = await paidPayment();
  assert.deepEqual(await paymentEvents(paymentId), TIMELINE);
  const timeline = expectStatus(
    await call(fx.app, "GET", `/payments/${appId()}/${paymentId}/events`, { token: owner() }),
    200,
  );
  assert.deepEqual(
    timeline.map((e: any) => [e.from_status, e.to_status, e.actor]),
    [
      [null, "pending", `user:${fx.tenants.owner.user.id}`],
      ["pending", "hold", `user:${fx.tenants.owner.user.id}`],
      ["hold", "paid", "system"],
    ],
  );
  const entries = expectStatus(
    await call(fx.app, "GET", `/balance-transactions/${appId()}?payment_id=${paymentId}&limit=100`, {
      token: owner(),
    }),
    200,
  );
  const holds = entries.filter((e: any) => e.type === "hold");
  assert.ok(holds.length >= 2, "the hold is in the books");
  assert.equal(
    holds.reduce((sum: number, e: any) => sum + Math.round(Number(e.amount) * 100), 0),
    0,
    "balanced",
  );
});

test("an endpoint of `payment.paid` only gets paid; one of `payment.*` and one of `*` get the hold too", async () => {
  const paidOnly = await endpoint(["payment.paid"]);
  const wildcard = await endpoint(["payment.*"]);
  const everything = await endpoint(["*"]);
  const paymentId = await paidPayment();
  assert.deepEqual(await paymentEvents(paymentId), TIMELINE);
  assert.deepEqual(await deliveredTypes(paidOnly, paymentId), ["payment.paid"]);
  assert.deepEqual(await deliveredTypes(wildcard, paymentId), [
    "payment.hold",
    "payment.paid",
    "payment.pending",
  ]);
  assert.deepEqual(await deliveredTypes(everything, paymentId), [
    "payment.hold",
    "payment.paid",
    "payment.pending",
  ]);
});

test("every status change's record names a payment that exists: the writes keep it, with no foreign key", async () => {
  // payment_events has no foreign key to payments (migration 0025, docs/decisions.md §17): each
  // record is written by the statement or transaction that writes its payment. This file's
  // payments went every way (one statement, the transaction, with and without endpoints).
  await paidPayment();
  const result = await fx.app.deps.db.execute(
    sql`select count(*)::int as events,
      count(*) filter (where not exists (select 1 from payments p where p.id = e.payment_id))::int as orphans
      from payment_events e`,
  );
  const [counted] = ((result as { rows?: unknown[] }).rows ?? result) as {
    events: number;
    orphans: number;
  }[];
  assert.ok(counted.events >= 3, "the file's payments recorded their moves");
  assert.equal(counted.orphans, 0);
});
