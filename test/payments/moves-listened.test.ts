// A card the authorize job holds and captures is moved through `hold` to `paid` in one statement
// even while webhook endpoints listen: the statement writes each listening endpoint's deliveries
// and their jobs itself (src/modules/payments/lifecycle.ts, `moveUnlocked`). The delivery ids it
// needs are made beforehand, as many as the app had enabled endpoints when this process last read
// them; an endpoint added since, one too many, sends the move to the transaction path, which
// writes the same deliveries. No worker runs: each job is its own handler, run as pg-boss would.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { sql } from "drizzle-orm";
import type { AuthorizeJob } from "../../src/modules/payments/job-names.ts";
import { authorizeJob } from "../../src/modules/payments/pipeline/authorize.ts";
import { buildTestApp, type TestApp } from "../helpers/app.ts";
import { eventually } from "../helpers/contract.ts";
import type { Tenants } from "../helpers/fixture.ts";
import { call, createApp, expectStatus, tenantFixture } from "../helpers/http.ts";
import { CARDS, card, confirm, createPayment } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";
import { paymentStatements } from "../helpers/statements.ts";

let price: { id: string };
let app: TestApp;
let tenants: Tenants;

before(async () => {
  // Tenants need their sign-up mail, which a job sends: made with a worker, then the process
  // restarted without one.
  const first = await buildTestApp({ WEBHOOKS_ALLOW_LOOPBACK: "true" });
  tenants = await tenantFixture(first);
  price = await createPrice(first, tenants.owner.token, tenants.app.id, { amount: 12 });
  app = await first.restart({ RUN_WORKER: "false" });
});
after(() => app?.close());

const owner = () => tenants.owner.token;
const appId = () => tenants.app.id;

async function endpoint(events: string[], enabled = true, inApp = appId()) {
  const made = expectStatus(
    await call(app, "POST", `/webhooks/${inApp}`, {
      token: owner(),
      // Nothing listens there: only the deliveries' records and jobs are looked at.
      body: { url: "http://127.0.0.1:9/hooks", events, enabled },
    }),
    201,
  );
  return made.id as string;
}

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const result = await app.deps.db.execute(query);
  return ((result as { rows?: unknown[] }).rows ?? result) as T[];
}

/** A payment created and confirmed, then its authorize job run: answers how often it wrote the payment. */
async function paidByTheJob(
  beforeTheJob: () => Promise<unknown> = async () => {},
  of: { appId: string; priceId: string } = { appId: appId(), priceId: price.id },
) {
  const payment = await createPayment(app, owner(), of.appId, {
    price_id: of.priceId,
    payment_provider: "card",
  });
  expectStatus(await confirm(app, owner(), of.appId, payment.id, card(CARDS.ok)), 200);
  const data = await eventually(async () => {
    const [job] = await rows<{ data: AuthorizeJob }>(
      sql`select data from pgboss.job where name = 'payments.authorize' and data->>'paymentId' = ${payment.id}`,
    );
    return job?.data;
  });
  await beforeTheJob();
  const statements = await paymentStatements(app, () =>
    authorizeJob(app.deps).handle(data, { id: "only", retryCount: 0 }),
  );
  const paid = expectStatus(
    await call(app, "GET", `/payments/${of.appId}/${payment.id}`, { token: owner() }),
    200,
  );
  assert.equal(paid.status, "paid");
  return { id: payment.id as string, writes: statements.filter((t) => /update "payments"/.test(t)).length };
}

/** Each endpoint's deliveries of the payment's events, by event type; and whether each has its one job. */
async function deliveriesOf(paymentId: string, endpointIds: string[]) {
  const read = () =>
    rows<{ endpoint_id: string; type: string; jobs: number }>(
      sql`select d.endpoint_id, e.type,
          (select count(*)::int from pgboss.job j where j.name = 'webhooks.deliver' and j.data->>'deliveryId' = d.id) as jobs
        from webhook_deliveries d join webhook_events e on e.id = d.event_id
        where e.data->>'id' = ${paymentId}`,
    );
  // The outbox relay of this process may be moving the jobs into pg-boss: waited for.
  await eventually(async () => {
    await app.deps.jobs.drainOutbox();
    return (await read()).every((delivery) => delivery.jobs > 0) || undefined;
  });
  const found = await read();
  for (const delivery of found) assert.equal(delivery.jobs, 1, `one job for ${delivery.type}`);
  return endpointIds.map((id) =>
    found
      .filter((d) => d.endpoint_id === id)
      .map((d) => d.type)
      .sort(),
  );
}

test("endpoints listening: the job writes the payment once, with every subscribed endpoint's deliveries and jobs", async () => {
  const everyPayment = await endpoint(["payment.*"]);
  const paidOnly = await endpoint(["payment.paid"]);
  const disabled = await endpoint(["*"], false);
  const { id, writes } = await paidByTheJob();
  assert.equal(writes, 1, `one write of the payment, not ${writes}`);
  assert.deepEqual(await deliveriesOf(id, [everyPayment, paidOnly, disabled]), [
    ["payment.hold", "payment.paid", "payment.pending"],
    ["payment.paid"],
    [],
  ]);
  const [counted] = await rows<{ events: number }>(
    sql`select count(*)::int as events from webhook_events where data->>'id' = ${id}`,
  );
  assert.equal(counted.events, 3, "each move's event written once");
});

test("more endpoints listening than the process knew of: the move takes the transaction, the next payment one statement", async () => {
  const known = await endpoint(["payment.*"]);
  let added: string[] = [];
  // Two endpoints more after the create read the app's: the statement would need more ids.
  const late = await paidByTheJob(async () => {
    added = [await endpoint(["payment.hold"]), await endpoint(["payment.hold"])];
  });
  assert.ok(late.writes > 1, `the transaction path, not ${late.writes} write`);
  assert.deepEqual(await deliveriesOf(late.id, [known, ...added]), [
    ["payment.hold", "payment.paid", "payment.pending"],
    ["payment.hold"],
    ["payment.hold"],
  ]);
  const next = await paidByTheJob();
  assert.equal(next.writes, 1, `one write of the payment, not ${next.writes}`);
  assert.deepEqual(await deliveriesOf(next.id, [known, ...added]), [
    ["payment.hold", "payment.paid", "payment.pending"],
    ["payment.hold"],
    ["payment.hold"],
  ]);
});

test("an app known to have no endpoint: one write with none listening, the transaction once one is added", async () => {
  const quiet = await createApp(app, owner(), { name: "Quiet shop" });
  const of = {
    appId: quiet.id as string,
    priceId: (await createPrice(app, owner(), quiet.id, { amount: 12 })).id as string,
  };
  const alone = await paidByTheJob(undefined, of);
  assert.equal(alone.writes, 1, `one write of the payment, not ${alone.writes}`);
  const [none] = await rows<{ deliveries: number }>(
    sql`select count(*)::int as deliveries from webhook_deliveries d join webhook_events e on e.id = d.event_id
      where e.data->>'id' = ${alone.id}`,
  );
  assert.equal(none.deliveries, 0);
  // The process now knows the app has none; an endpoint added after the next create must still
  // get that payment's moves.
  let added = "";
  const late = await paidByTheJob(async () => {
    added = await endpoint(["payment.*"], true, of.appId);
  }, of);
  assert.ok(late.writes > 1, `the transaction path, not ${late.writes} write`);
  assert.deepEqual(await deliveriesOf(late.id, [added]), [["payment.hold", "payment.paid"]]);
  const next = await paidByTheJob(undefined, of);
  assert.equal(next.writes, 1, `one write of the payment, not ${next.writes}`);
  assert.deepEqual(await deliveriesOf(next.id, [added]), [
    ["payment.hold", "payment.paid", "payment.pending"],
  ]);
});
