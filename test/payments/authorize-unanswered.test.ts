// A card the authorize job holds, with nothing to happen before the capture, is captured and paid
// by that job with the payment's row written once (src/modules/payments/pipeline/capture.ts,
// `paidOnAuthorization`). And a card the authorize job held and captured, its answer lost (the
// worker died right after the capture: the payment never recorded either), and the provider then
// down through every retry: the job gives up and the payment ends `failed`, and the release job
// finds the intent the provider holds for the payment and refunds its capture
// (src/modules/payments/pipeline/release-hold.ts); as it refunds a card charged at once whose 3-D
// Secure step was passed as its payment expired. No worker runs here: each job is its own handler,
// run as pg-boss would run it.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { sql } from "drizzle-orm";
import type { Deps } from "../../src/deps.ts";
import { expirePendingJob } from "../../src/modules/payments/expire.ts";
import type { AuthorizeJob, PaymentJob } from "../../src/modules/payments/job-names.ts";
import { AUTHORIZE_RETRY_LIMIT, authorizeJob } from "../../src/modules/payments/pipeline/authorize.ts";
import { releaseHoldJob } from "../../src/modules/payments/pipeline/release-hold.ts";
import { sandboxIntents } from "../../src/platform/providers/payments/sandbox/tables.ts";
import { buildTestApp, type TestApp } from "../helpers/app.ts";
import { eventually } from "../helpers/contract.ts";
import type { Tenants } from "../helpers/fixture.ts";
import { call, expectStatus, tenantFixture } from "../helpers/http.ts";
import { CARDS, card, confirm, createPayment } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";
import { paymentStatements } from "../helpers/statements.ts";

let price: { id: string };
let app: TestApp;
let tenants: Tenants;

before(async () => {
  // Tenants need their sign-up mail, which a job sends: made with a worker, then the process
  // restarted without one.
  const first = await buildTestApp();
  tenants = await tenantFixture(first);
  price = await createPrice(first, tenants.owner.token, tenants.app.id, { amount: 12 });
  app = await first.restart({ RUN_WORKER: "false" });
});
after(() => app?.close());

async function jobData<T>(name: string, paymentId: string): Promise<T | undefined> {
  const result = await app.deps.db.execute(
    sql`select data from pgboss.job where name = ${name} and data->>'paymentId' = ${paymentId}`,
  );
  const rows = ((result as { rows?: unknown[] }).rows ?? result) as { data: T }[];
  return rows[0]?.data;
}

async function intentOf(paymentId: string) {
  const intents = await app.deps.db.select().from(sandboxIntents);
  const mine = intents.filter((i) => (i.metadata as Record<string, string>).payment_id === paymentId);
  assert.equal(mine.length, 1, "one intent");
  return mine[0];
}

/** A card payment confirmed by its app's owner, and the authorize job its confirm queued. */
async function confirmedCard(number = CARDS.ok) {
  const { owner } = tenants;
  const appId = tenants.app.id;
  const payment = await createPayment(app, owner.token, appId, {
    price_id: price.id,
    payment_provider: "card",
  });
  expectStatus(await confirm(app, owner.token, appId, payment.id, card(number)), 200);
  const data = await eventually(() => jobData<AuthorizeJob>("payments.authorize", payment.id));
  return { owner, appId, payment, data };
}

test("captured, its answer lost, then the provider down: failed, and the capture refunded", async () => {
  const { owner, appId, payment, data } = await confirmedCard();

  // The first try holds and captures the card, then dies before it writes anything.
  const dying: Deps = {
    ...app.deps,
    faults: {
      crashPoint(point) {
        if (point === "capture-sent") throw new Error("the worker died right after the capture");
      },
    },
  };
  await assert.rejects(authorizeJob(dying).handle(data, { id: "first", retryCount: 0 }), /died/);
  const url = `/payments/${appId}/${payment.id}`;
  assert.equal(expectStatus(await call(app, "GET", url, { token: owner.token }), 200).status, "pending");
  const captured = await intentOf(payment.id);
  assert.equal(captured.amountReceived, captured.amount, "the card was captured");

  // The provider is down for every later try: the last one gives up.
  const sandbox = app.deps.paymentProviders.sandbox;
  await sandbox.setOutage(true);
  try {
    await authorizeJob(app.deps).handle(data, { id: "last", retryCount: AUTHORIZE_RETRY_LIMIT });
  } finally {
    await sandbox.setOutage(false);
  }
  const failed = expectStatus(await call(app, "GET", url, { token: owner.token }), 200);
  assert.equal(failed.status, "failed");

  // Back up: the release job finds what the lost call made, and gives the money back.
  const release = await eventually(() => jobData<PaymentJob>("payments.release-hold", payment.id));
  await releaseHoldJob(app.deps).handle(release, { id: "release", retryCount: 0 });
  const refunded = await intentOf(payment.id);
  assert.equal(refunded.amountRefunded, refunded.amount, "refunded in full");
  await releaseHoldJob(app.deps).handle(release, { id: "again", retryCount: 1 });
  assert.equal((await intentOf(payment.id)).amountRefunded, refunded.amount, "once, when run again");
  assert.equal(expectStatus(await call(app, "GET", url, { token: owner.token }), 200).status, "failed");
});

test("held, captured and paid by the authorize job: the payment written once, every move recorded", async () => {
  const { owner, appId, payment, data } = await confirmedCard();
  const statements = await paymentStatements(app, () =>
    authorizeJob(app.deps).handle(data, { id: "only", retryCount: 0 }),
  );
  const writes = statements.filter((text) => /update "payments"/.test(text));
  assert.equal(writes.length, 1, `one write of the payment, not ${writes.length}`);
  const paid = expectStatus(
    await call(app, "GET", `/payments/${appId}/${payment.id}`, { token: owner.token }),
    200,
  );
  assert.equal(paid.status, "paid");
  const captured = await intentOf(payment.id);
  assert.equal(captured.amountReceived, captured.amount, "captured in full");
  const events = expectStatus(
    await call(app, "GET", `/payments/${appId}/${payment.id}/events`, { token: owner.token }),
    200,
  );
  const moves = (Array.isArray(events) ? events : events.data).map(
    (e: { from_status: string | null; to_status: string; actor: string }) => [
      e.from_status,
      e.to_status,
      e.actor,
    ],
  );
  assert.deepEqual(moves, [
    [null, "pending", `user:${owner.user.id}`],
    ["pending", "hold", `user:${owner.user.id}`],
    ["hold", "paid", "system"],
  ]);
});

test("a 3-D Secure step passed as its payment expired: the card charged at once is refunded", async () => {
  const { owner, appId, payment, data } = await confirmedCard(CARDS.threeDS);
  await authorizeJob(app.deps).handle(data, { id: "only", retryCount: 0 });
  const url = `/payments/${appId}/${payment.id}`;
  const waiting = expectStatus(await call(app, "GET", url, { token: owner.token }), 200);
  assert.equal(waiting.status, "pending");
  // The cart expires while the shopper is at the step (the sweep run a day later on its clock)…
  const later = new Date(Date.now() + 24 * 3_600_000 * 30);
  await expirePendingJob({ ...app.deps, now: () => later }).handle({}, { id: "sweep", retryCount: 0 });
  assert.equal(expectStatus(await call(app, "GET", url, { token: owner.token }), 200).status, "cancelled");
  // …and the shopper passes it before the release runs: the card, charged at once, is charged.
  const intent = await intentOf(payment.id);
  expectStatus(await call(app, "POST", `/sandbox/3ds/${intent.id}`, { body: { outcome: "pass" } }), 200);
  assert.equal((await intentOf(payment.id)).amountReceived, intent.amount, "charged by the step");
  const release = await eventually(() => jobData<PaymentJob>("payments.release-hold", payment.id));
  await releaseHoldJob(app.deps).handle(release, { id: "release", retryCount: 0 });
  assert.equal((await intentOf(payment.id)).amountRefunded, intent.amount, "refunded in full");
  assert.equal(expectStatus(await call(app, "GET", url, { token: owner.token }), 200).status, "cancelled");
});
