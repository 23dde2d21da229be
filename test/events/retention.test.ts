// Events are kept 30 days: the hourly job deletes older ones (with their deliveries), and keeps
// the rest, a deleted app's included.
import assert from "node:assert/strict";
import { test } from "node:test";
import { eq } from "drizzle-orm";
import { pruneEventsJob } from "../../src/modules/webhooks/retention.ts";
import { webhookEvents } from "../../src/modules/webhooks/tables.ts";
import { FakeClock } from "../helpers/clock.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, createApp, expectStatus, signup } from "../helpers/http.ts";
import { createPayment } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";

const DAY = 24 * 3600_000;
const clock = new FakeClock();
const fx = useTestApp({ WEBHOOKS_ALLOW_LOOPBACK: "true" }, { now: clock.now });

test("the retention job deletes events older than 30 days, with their deliveries, and keeps newer ones", async () => {
  // An API key: a session would expire over the month the clock moves on.
  const key = await fx.key();
  const appId = fx.tenants.app.id;
  const endpoint = expectStatus(
    await call(fx.app, "POST", `/webhooks/${appId}`, {
      token: key,
      // Nothing listens there: the delivery stays in the log, retried.
      body: { url: "http://127.0.0.1:9/hooks", events: ["payment.pending"] },
    }),
    201,
  );
  const price = await createPrice(fx.app, key, appId);
  const body = { price_id: price.id, payment_provider: "card" };
  const old = await createPayment(fx.app, key, appId, body);
  const events = async () =>
    expectStatus(await call(fx.app, "GET", `/events/${appId}?limit=100`, { token: key }), 200);
  const oldEvent = (await events()).find((e: any) => e.data.id === old.id);
  assert.ok(oldEvent, "the old payment's event is listed");
  const deliveries = async () =>
    expectStatus(
      await call(fx.app, "GET", `/webhooks/${appId}/${endpoint.id}/deliveries`, { token: key }),
      200,
    );
  assert.ok((await deliveries()).some((d: any) => d.event.id === oldEvent.id));

  clock.advance(29 * DAY);
  const recent = await createPayment(fx.app, key, appId, body);
  const prune = pruneEventsJob(fx.app.deps);
  await prune.handle({}, { id: "test", retryCount: 0 });
  assert.ok(
    (await events()).some((e: any) => e.id === oldEvent.id),
    "29 days on, the old event is still kept",
  );

  clock.advance(2 * DAY);
  await prune.handle({}, { id: "test", retryCount: 0 });
  const left = await events();
  assert.ok(!left.some((e: any) => e.id === oldEvent.id), "31 days on, the old event is gone");
  assert.equal((await call(fx.app, "GET", `/events/${appId}/${oldEvent.id}`, { token: key })).status, 404);
  assert.ok(
    left.some((e: any) => e.data.id === recent.id),
    "the event of two days ago is kept",
  );
  const logged = await deliveries();
  assert.ok(!logged.some((d: any) => d.event.id === oldEvent.id), "its delivery went with it");
  assert.ok(
    logged.some((d: any) => d.event.id !== oldEvent.id),
    "the newer delivery is kept",
  );
  // A second run finds nothing more to delete.
  await prune.handle({}, { id: "test", retryCount: 0 });
  assert.equal((await events()).length, left.length);
});

test("a deleted app's events are pruned like any app's once 30 days old", async () => {
  // An owner signed up now (the test before moved the clock a month on), the app deleted while the
  // session is young; the clock moves on afterwards.
  const { token } = await signup(fx.app);
  const app = await createApp(fx.app, token, { name: "Closing soon" });
  const price = await createPrice(fx.app, token, app.id);
  const payment = await createPayment(fx.app, token, app.id, {
    price_id: price.id,
    payment_provider: "card",
  });
  expectStatus(
    await call(fx.app, "POST", `/payments/${app.id}/${payment.id}/cancel`, { token, body: {} }),
    200,
  );
  expectStatus(await call(fx.app, "DELETE", `/apps/${app.id}`, { token }), 204);
  // Read behind the API: a deleted app's events are no longer listed anywhere.
  const left = async () =>
    (await fx.app.deps.db.select().from(webhookEvents).where(eq(webhookEvents.appId, app.id))).length;
  assert.equal(await left(), 2, "the delete leaves its events, unlisted, as it leaves its payments");
  const prune = pruneEventsJob(fx.app.deps);
  await prune.handle({}, { id: "test", retryCount: 0 });
  assert.equal(await left(), 2, "a young event of a deleted app is kept");
  clock.advance(31 * DAY);
  await prune.handle({}, { id: "test", retryCount: 0 });
  assert.equal(await left(), 0, "31 days on, the deleted app's events are gone");
});
