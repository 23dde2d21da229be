// POST /webhooks/{app_id}/{id}/test: a signed `webhook.test` event to one endpoint, through the
// normal delivery job, logged and replayable like any other (docs/webhooks.md).
import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { Receiver, verifyStandardWebhook, waitForDeliveries } from "../helpers/webhooks.ts";

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

const sendTest = (token: string | undefined, appId: string, endpointId: string) =>
  call(fx.app, "POST", `/webhooks/${appId}/${endpointId}/test`, { token });

test("a test event reaches the endpoint signed with its secret, is logged and can be replayed", async () => {
  // Subscribed to KYC events only: the test event goes to the endpoint whatever it listens to.
  const endpoint = expectStatus(
    await call(fx.app, "POST", `/webhooks/${fx.tenants.app.id}`, {
      token: fx.tenants.owner.token,
      body: { url: receiver.url, events: ["kyc.updated"] },
    }),
    201,
  );
  const queued = expectStatus(
    await sendTest(fx.tenants.developer.token, fx.tenants.app.id, endpoint.id),
    202,
  );
  assert.match(queued.id, /^whd_/);
  assert.equal(queued.endpoint_id, endpoint.id);
  assert.equal(queued.event.type, "webhook.test");
  assert.equal(queued.status, "pending");
  assert.deepEqual(queued.attempts, []);

  const [delivered] = await waitForDeliveries(
    fx.app,
    fx.tenants.owner.token,
    fx.tenants.app.id,
    endpoint.id,
    (d) => d.some((x) => x.id === queued.id && x.status === "succeeded"),
  );
  assert.equal(delivered.id, queued.id);
  assert.equal(delivered.attempts[0].status_code, 200);

  assert.equal(receiver.received.length, 1);
  const [hit] = receiver.received;
  assert.ok(
    verifyStandardWebhook(endpoint.secret, hit.headers, hit.body),
    "signed with the endpoint's secret",
  );
  assert.equal(hit.headers["webhook-id"], queued.event.id);
  const payload = JSON.parse(hit.body);
  assert.equal(payload.type, "webhook.test");
  assert.equal(payload.app_id, fx.tenants.app.id);
  assert.equal(payload.data.endpoint_id, endpoint.id);

  const replay = expectStatus(
    await call(fx.app, "POST", `/webhooks/${fx.tenants.app.id}/deliveries/${queued.id}/replay`, {
      token: fx.tenants.owner.token,
    }),
    201,
  );
  assert.equal(replay.event.id, queued.event.id);
  await waitForDeliveries(fx.app, fx.tenants.owner.token, fx.tenants.app.id, endpoint.id, (d) =>
    d.some((x) => x.id === replay.id && x.status === "succeeded"),
  );
  assert.equal(receiver.received.length, 2);
  assert.equal(receiver.received[1].headers["webhook-id"], queued.event.id, "the same event, again");
});

test("another app's endpoint is 404, an unknown one too; no credential is 401", async () => {
  const theirs = expectStatus(
    await call(fx.app, "POST", `/webhooks/${fx.tenants.otherApp.id}`, {
      token: fx.tenants.outsider.token,
      body: { url: receiver.url, events: ["*"] },
    }),
    201,
  );
  const before = receiver.received.length;
  // Their endpoint through our app, and our app through their credential.
  assertProblem(await sendTest(fx.tenants.owner.token, fx.tenants.app.id, theirs.id), 404, "not_found");
  assertProblem(await sendTest(fx.tenants.owner.token, fx.tenants.otherApp.id, theirs.id), 404, "not_found");
  assertProblem(await sendTest(fx.tenants.owner.token, fx.tenants.app.id, "wh_unknown"), 404, "not_found");
  assertProblem(await sendTest(undefined, fx.tenants.otherApp.id, theirs.id), 401, "unauthenticated");
  const log = expectStatus(
    await call(fx.app, "GET", `/webhooks/${fx.tenants.otherApp.id}/${theirs.id}/deliveries`, {
      token: fx.tenants.outsider.token,
    }),
    200,
  );
  assert.deepEqual(log, [], "nothing was queued for their endpoint");
  assert.equal(receiver.received.length, before);
});
