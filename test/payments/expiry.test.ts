import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { EXPIRE_PENDING_JOB } from "../../src/modules/payments/expire.ts";
import { FakeClock } from "../helpers/clock.ts";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, createApp, expectStatus } from "../helpers/http.ts";
import { CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";
import { Receiver } from "../helpers/webhooks.ts";
import { sendAsScheduled } from "../helpers/worker.ts";

// Abandoned carts end: a payment left pending past PENDING_PAYMENT_TTL_HOURS is cancelled with the
// reason `expired` by the periodic sweep, with its event and webhook, and no longer blocks the
// app's deletion. The TTL here is an hour, passed on the service's clock (a real-time TTL of a few
// seconds expired carts before the test looked, on a loaded machine); the sweep's cron slot is a
// minute, so the test queues the sweep itself, as the cron does.

const TTL_MS = 3_600_000;
const clock = new FakeClock();
let receiver: Receiver;

const fx = useTestApp(
  { PENDING_PAYMENT_TTL_HOURS: "1", WEBHOOKS_ALLOW_LOOPBACK: "true" },
  {
    now: clock.now,
    async setUp() {
      receiver = new Receiver();
      await receiver.start();
    },
    async tearDown() {
      await receiver.stop();
    },
  },
);

const sweep = async () => {
  const before = await fx.app.deps.jobs.boss.findJobs(EXPIRE_PENDING_JOB);
  await sendAsScheduled(fx.app.deps.jobs.boss, EXPIRE_PENDING_JOB);
  await eventually(async () => {
    const jobs = await fx.app.deps.jobs.boss.findJobs(EXPIRE_PENDING_JOB);
    return jobs.length > before.length && jobs.every((j) => j.state === "completed") ? true : undefined;
  });
};

describe("pending payments expire", () => {
  test("the sweep is scheduled, every minute", async () => {
    const schedules = await fx.app.deps.jobs.boss.getSchedules();
    const mine = schedules.find((s) => s.name === EXPIRE_PENDING_JOB);
    assert.equal(mine?.cron, "* * * * *");
  });

  test("an abandoned payment is cancelled (expired) with its event and webhook; the app can then be deleted", async () => {
    const { owner } = fx.tenants;
    const app = await createApp(fx.app, owner.token, { name: "Abandoned carts" });
    expectStatus(
      await call(fx.app, "POST", `/webhooks/${app.id}`, {
        token: owner.token,
        body: { url: receiver.url, events: ["payment.*"] },
      }),
      201,
    );
    const price = await createPrice(fx.app, owner.token, app.id, { amount: 15, currency: "usd" });
    const abandoned = await createPayment(fx.app, owner.token, app.id, {
      price_id: price.id,
      payment_provider: "card",
    });
    const paid = await createPayment(fx.app, owner.token, app.id, {
      price_id: price.id,
      payment_provider: "card",
    });
    expectStatus(await confirm(fx.app, owner.token, app.id, paid.id, card(CARDS.ok)), 200);
    await waitForStatus(fx.app, owner.token, app.id, paid.id, "paid");

    // Before its TTL, the cart blocks the delete and the sweep leaves it alone.
    await sweep();
    assert.equal(
      expectStatus(
        await call(fx.app, "GET", `/payments/${app.id}/${abandoned.id}`, { token: owner.token }),
        200,
      ).status,
      "pending",
    );
    const blocked = assertProblem(
      await call(fx.app, "DELETE", `/apps/${app.id}`, { token: owner.token }),
      409,
      "conflict",
    );
    assert.match(blocked.detail, /1 payment pending/);

    clock.advance(TTL_MS + 1000);
    const fresh = await createPayment(fx.app, owner.token, app.id, {
      price_id: price.id,
      payment_provider: "card",
    });
    await sweep();
    const expired = expectStatus(
      await call(fx.app, "GET", `/payments/${app.id}/${abandoned.id}`, { token: owner.token }),
      200,
    );
    assert.equal(expired.status, "cancelled");
    assert.equal(expired.transaction_response.error.code, "expired");
    assert.match(expired.transaction_response.error.message, /nothing was charged/);
    const events = expectStatus(
      await call(fx.app, "GET", `/payments/${app.id}/${abandoned.id}/events`, { token: owner.token }),
      200,
    );
    const last = events.at(-1);
    assert.deepEqual(
      [last.from_status, last.to_status, last.reason, last.actor],
      ["pending", "cancelled", "expired", "system"],
    );
    const hook = await eventually(async () =>
      receiver.received
        .map((r) => JSON.parse(r.body))
        .find((e) => e.type === "payment.cancelled" && e.data.id === abandoned.id),
    );
    assert.equal(hook.data.reason, "expired");
    // The paid one is untouched; the one opened a moment ago is within its TTL.
    assert.equal(
      expectStatus(await call(fx.app, "GET", `/payments/${app.id}/${paid.id}`, { token: owner.token }), 200)
        .status,
      "paid",
    );
    assert.equal(
      expectStatus(await call(fx.app, "GET", `/payments/${app.id}/${fresh.id}`, { token: owner.token }), 200)
        .status,
      "pending",
    );

    clock.advance(TTL_MS + 1000);
    await sweep();
    expectStatus(await call(fx.app, "DELETE", `/apps/${app.id}`, { token: owner.token }), 204);
  });
});
