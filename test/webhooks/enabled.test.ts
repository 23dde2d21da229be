// An endpoint's `enabled`: a disabled endpoint gets no delivery of new events, its queued ones wait
// unattempted until it is enabled again, and it takes no test event or replay (409)
// (docs/webhooks.md, "Disabling an endpoint").
import assert from "node:assert/strict";
import { test } from "node:test";
import { WEBHOOK_DELIVERY_JOB } from "../../src/modules/webhooks/jobs.ts";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { createPayment } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";
import { Receiver, waitForDeliveries } from "../helpers/webhooks.ts";

const receiver = new Receiver();

const fx = useTestApp(
  { WEBHOOKS_ALLOW_LOOPBACK: "true" },
  {
    async setUp() {
      await receiver.start();
    },
    async tearDown() {
      await receiver.stop();
    },
  },
);

const owner = () => fx.tenants.owner.token;
const appId = () => fx.tenants.app.id;

async function register(body: Record<string, unknown>) {
  return expectStatus(
    await call(fx.app, "POST", `/webhooks/${appId()}`, {
      token: owner(),
      body: { url: receiver.url, ...body },
    }),
    201,
  );
}

const patch = (id: string, body: unknown, token = owner()) =>
  call(fx.app, "PATCH", `/webhooks/${appId()}/${id}`, { token, body });

async function deliveries(endpointId: string) {
  return expectStatus(
    await call(fx.app, "GET", `/webhooks/${appId()}/${endpointId}/deliveries`, { token: owner() }),
    200,
  );
}

async function audited(action: string) {
  const log = expectStatus(
    await call(fx.app, "GET", `/apps/${appId()}/audit-log?action=${action}`, { token: owner() }),
    200,
  );
  return log.map((entry: { target_id: string }) => entry.target_id);
}

test("enabled by default, or registered disabled; every representation says which", async () => {
  const on = await register({ events: ["kyc.updated"] });
  const off = await register({ events: ["kyc.updated"], enabled: false });
  assert.equal(on.enabled, true);
  assert.equal(off.enabled, false);
  const one = expectStatus(
    await call(fx.app, "GET", `/webhooks/${appId()}/${off.id}`, { token: owner() }),
    200,
  );
  assert.equal(one.enabled, false);
  const list = expectStatus(await call(fx.app, "GET", `/webhooks/${appId()}`, { token: owner() }), 200);
  const byId = new Map(list.map((e: { id: string; enabled: boolean }) => [e.id, e.enabled]));
  assert.equal(byId.get(on.id), true);
  assert.equal(byId.get(off.id), false);
  assertProblem(
    await call(fx.app, "POST", `/webhooks/${appId()}`, {
      token: owner(),
      body: { url: receiver.url, events: ["*"], enabled: "no" },
    }),
    400,
    "validation_failed",
  );
});

test("PATCH disables and enables, each audited; a PATCH without `enabled` leaves it; other apps' endpoints are 404", async () => {
  const endpoint = await register({ events: ["kyc.updated"] });
  const disabled = expectStatus(
    await patch(endpoint.id, { enabled: false }, fx.tenants.developer.token),
    200,
  );
  assert.equal(disabled.enabled, false);
  const moved = expectStatus(await patch(endpoint.id, { events: ["payment.*"] }), 200);
  assert.equal(moved.enabled, false, "a field left out stays");
  const enabled = expectStatus(await patch(endpoint.id, { enabled: true }), 200);
  assert.equal(enabled.enabled, true);
  // Enabling an enabled endpoint changes nothing, so records nothing.
  expectStatus(await patch(endpoint.id, { enabled: true }), 200);

  assert.deepEqual(await audited("webhook.disable"), [endpoint.id]);
  assert.deepEqual(await audited("webhook.enable"), [endpoint.id]);
  assert.deepEqual(await audited("webhook.update"), [endpoint.id]);

  assertProblem(await patch(endpoint.id, { enabled: false }, fx.tenants.outsider.token), 404, "not_found");
  assertProblem(await patch(endpoint.id, { enabled: "off" }), 400, "validation_failed");
  const still = expectStatus(
    await call(fx.app, "GET", `/webhooks/${appId()}/${endpoint.id}`, { token: owner() }),
    200,
  );
  assert.equal(still.enabled, true, "a refused edit changes nothing");
});

test("a payment made while the endpoint is disabled creates no delivery for it; one made after it is enabled again does", async () => {
  const endpoint = await register({ events: ["payment.pending"] });
  const price = await createPrice(fx.app, owner(), appId());
  const pay = () => createPayment(fx.app, owner(), appId(), { price_id: price.id, payment_provider: "card" });
  const first = await pay();
  await waitForDeliveries(fx.app, owner(), appId(), endpoint.id, (d) => d.length === 1);

  expectStatus(await patch(endpoint.id, { enabled: false }), 200);
  const whileDisabled = await pay();
  // The event is still the app's: the event log has it, only the delivery is not made.
  const events = expectStatus(
    await call(fx.app, "GET", `/events/${appId()}?type=payment.pending`, { token: owner() }),
    200,
  );
  assert.ok(events.some((e: { data: { id: string } }) => e.data.id === whileDisabled.id));
  const log = await deliveries(endpoint.id);
  assert.equal(log.length, 1);
  assert.equal(JSON.parse(log[0].request_body).data.id, first.id);

  expectStatus(await patch(endpoint.id, { enabled: true }), 200);
  const afterEnabled = await pay();
  const [latest] = await waitForDeliveries(fx.app, owner(), appId(), endpoint.id, (d) => d.length === 2);
  assert.equal(JSON.parse(latest.request_body).data.id, afterEnabled.id);
});

test("a delivery queued when the endpoint is disabled waits, unattempted, and goes out once it is enabled", async (t) => {
  // Its own receiver, refusing the first attempt only: the other tests' deliveries go elsewhere.
  const refusing = new Receiver();
  refusing.statuses = [500, 200];
  const endpoint = await register({ url: await refusing.start(), events: ["kyc.updated"] });
  t.after(() => refusing.stop());
  const queued = expectStatus(
    await call(fx.app, "POST", `/webhooks/${appId()}/${endpoint.id}/test`, { token: owner() }),
    202,
  );
  await waitForDeliveries(fx.app, owner(), appId(), endpoint.id, (d) =>
    d.some((x) => x.id === queued.id && x.status === "retrying"),
  );
  expectStatus(await patch(endpoint.id, { enabled: false }), 200);
  // Its retry comes due while the endpoint is disabled: the job ends without an attempt.
  await eventually(async () => {
    const jobs = await fx.app.deps.jobs.boss.findJobs(WEBHOOK_DELIVERY_JOB, {
      data: { deliveryId: queued.id },
    });
    return jobs.length === 1 && jobs[0].state === "completed" ? true : undefined;
  });
  assert.equal(refusing.received.length, 1, "only the attempt made before it was disabled");
  const [waiting] = (await deliveries(endpoint.id)).filter((d: { id: string }) => d.id === queued.id);
  assert.equal(waiting.status, "retrying");
  assert.equal(waiting.attempt_count, 1);

  expectStatus(await patch(endpoint.id, { enabled: true }), 200);
  const [delivered] = (
    await waitForDeliveries(fx.app, owner(), appId(), endpoint.id, (d) =>
      d.some((x) => x.id === queued.id && x.status === "succeeded"),
    )
  ).filter((d) => d.id === queued.id);
  assert.equal(delivered.attempt_count, 2);
  assert.equal(refusing.received.length, 2);
});

test("a disabled endpoint takes no test event and no replay (409); another app's is 404", async () => {
  const endpoint = await register({ events: ["*"] });
  const sent = expectStatus(
    await call(fx.app, "POST", `/webhooks/${appId()}/${endpoint.id}/test`, { token: owner() }),
    202,
  );
  await waitForDeliveries(fx.app, owner(), appId(), endpoint.id, (d) => d[0]?.status === "succeeded");
  expectStatus(await patch(endpoint.id, { enabled: false }), 200);

  const test409 = await call(fx.app, "POST", `/webhooks/${appId()}/${endpoint.id}/test`, { token: owner() });
  assertProblem(test409, 409, "conflict");
  assert.match(test409.body.detail, /disabled/);
  const replay = `/webhooks/${appId()}/deliveries/${sent.id}/replay`;
  const replay409 = await call(fx.app, "POST", replay, { token: owner() });
  assertProblem(replay409, 409, "conflict");
  assert.match(replay409.body.detail, /disabled/);
  assert.equal((await deliveries(endpoint.id)).length, 1, "nothing was queued");

  const outsider = fx.tenants.outsider.token;
  assertProblem(
    await call(fx.app, "POST", `/webhooks/${appId()}/${endpoint.id}/test`, { token: outsider }),
    404,
    "not_found",
  );
  assertProblem(await call(fx.app, "POST", replay, { token: outsider }), 404, "not_found");

  expectStatus(await patch(endpoint.id, { enabled: true }), 200);
  expectStatus(await call(fx.app, "POST", replay, { token: owner() }), 201);
});
