// PATCH /webhooks/{app_id}/{id}: an endpoint moves to a new URL or takes other events, keeping its
// secret and its delivery log (docs/webhooks.md).
import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { Receiver, verifyStandardWebhook } from "../helpers/webhooks.ts";

const before = new Receiver();
const after = new Receiver();

const fx = useTestApp(
  { WEBHOOKS_ALLOW_LOOPBACK: "true" },
  {
    async setUp() {
      await before.start();
      await after.start();
    },
    async tearDown() {
      await before.stop();
      await after.stop();
    },
  },
);

const patch = (token: string, appId: string, id: string, body: unknown) =>
  call(fx.app, "PATCH", `/webhooks/${appId}/${id}`, { token, body });

test("a moved endpoint receives at its new URL, signed with the secret it always had", async () => {
  const created = expectStatus(
    await call(fx.app, "POST", `/webhooks/${fx.tenants.app.id}`, {
      token: fx.tenants.owner.token,
      body: { url: before.url, events: ["kyc.updated"] },
    }),
    201,
  );
  const moved = expectStatus(
    await patch(fx.tenants.developer.token, fx.tenants.app.id, created.id, {
      url: after.url,
      events: ["payment.*"],
    }),
    200,
  );
  assert.equal(moved.url, after.url);
  assert.deepEqual(moved.events, ["payment.*"]);
  assert.equal(moved.secret, null, "the secret is answered only at creation or rotation");
  assert.ok(Date.parse(moved.updated_at) >= Date.parse(created.updated_at));

  // Only what is sent changes: a field left out stays.
  const renamed = expectStatus(
    await patch(fx.tenants.owner.token, fx.tenants.app.id, created.id, { events: ["*"] }),
    200,
  );
  assert.equal(renamed.url, after.url);

  expectStatus(
    await call(fx.app, "POST", `/webhooks/${fx.tenants.app.id}/${created.id}/test`, {
      token: fx.tenants.owner.token,
    }),
    202,
  );
  for (let i = 0; i < 100 && after.received.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(before.received.length, 0, "nothing goes to the old URL");
  assert.equal(after.received.length, 1);
  const [delivery] = after.received;
  assert.ok(
    verifyStandardWebhook(created.secret, delivery.headers, delivery.body),
    "signed with the original secret",
  );
});

test("bad URLs and unknown events are refused naming the field; other apps' endpoints are 404", async () => {
  const created = expectStatus(
    await call(fx.app, "POST", `/webhooks/${fx.tenants.app.id}`, {
      token: fx.tenants.owner.token,
      body: { url: before.url, events: ["*"] },
    }),
    201,
  );
  const unknown = await patch(fx.tenants.owner.token, fx.tenants.app.id, created.id, {
    events: ["payment.paiid"],
  });
  assertProblem(unknown, 400, "validation_failed");
  assert.equal(unknown.body.errors[0].path, "/body/events/0");
  assertProblem(
    await patch(fx.tenants.owner.token, fx.tenants.app.id, created.id, { url: "ftp://x" }),
    400,
    "validation_failed",
  );
  assertProblem(
    await patch(fx.tenants.owner.token, fx.tenants.app.id, created.id, { secret: "x" }),
    400,
    "validation_failed",
  );
  assertProblem(
    await patch(fx.tenants.outsider.token, fx.tenants.app.id, created.id, { events: ["*"] }),
    404,
    "not_found",
  );
  assertProblem(
    await patch(fx.tenants.owner.token, fx.tenants.app.id, "wh_00000000000000000000000000", {
      events: ["*"],
    }),
    404,
    "not_found",
  );
  const still = expectStatus(
    await call(fx.app, "GET", `/webhooks/${fx.tenants.app.id}/${created.id}`, {
      token: fx.tenants.owner.token,
    }),
    200,
  );
  assert.deepEqual(still.events, ["*"], "a refused edit changes nothing");
});
