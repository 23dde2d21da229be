// The delivery log as a console reads it: each delivery answers the exact JSON its attempts POSTed
// (`request_body`) beside the start of each answer, and the log filters by status and event type
// (docs/webhooks.md).
import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { Receiver, waitForDeliveries } from "../helpers/webhooks.ts";

const receiver = new Receiver();
let endpointId: string;

const fx = useTestApp(
  { WEBHOOKS_ALLOW_LOOPBACK: "true" },
  {
    async setUp() {
      await receiver.start();
      endpointId = expectStatus(
        await call(fx.app, "POST", `/webhooks/${fx.tenants.app.id}`, {
          token: fx.tenants.owner.token,
          body: { url: receiver.url, events: ["payment.*"] },
        }),
        201,
      ).id;
    },
    async tearDown() {
      await receiver.stop();
    },
  },
);

const log = async (query = "", token = fx.tenants.owner.token, appId = fx.tenants.app.id) =>
  call(fx.app, "GET", `/webhooks/${appId}/${endpointId}/deliveries${query}`, { token });

test("a delivery answers the body its attempts sent, and the start of each answer", async () => {
  receiver.responseBody = `{"received":true,"note":"${"x".repeat(400)}"}`;
  const price = expectStatus(
    await call(fx.app, "POST", `/prices/${fx.tenants.app.id}`, {
      token: fx.tenants.owner.token,
      body: { name: "Poster", amount: 12, currency: "usd" },
    }),
    201,
  );
  const payment = expectStatus(
    await call(fx.app, "POST", `/payments/${fx.tenants.app.id}`, {
      token: fx.tenants.owner.token,
      body: { price_id: price.id, payment_provider: "card" },
    }),
    201,
  );
  const [delivery] = await waitForDeliveries(
    fx.app,
    fx.tenants.owner.token,
    fx.tenants.app.id,
    endpointId,
    (deliveries) => deliveries.some((d) => d.status === "succeeded"),
  );
  assert.equal(delivery.event.type, "payment.pending");
  const sent = receiver.received.find((r) => r.headers["webhook-id"] === delivery.event.id);
  assert.ok(sent, "the receiver got the event");
  assert.equal(delivery.request_body, sent.body, "byte for byte what was POSTed");
  const body = JSON.parse(delivery.request_body);
  assert.equal(body.id, delivery.event.id);
  assert.equal(body.type, "payment.pending");
  assert.equal(body.app_id, fx.tenants.app.id);
  assert.equal(body.data.id, payment.id);
  const [attempt] = delivery.attempts;
  assert.equal(attempt.status_code, 200);
  assert.equal(attempt.response_excerpt.length, 256, "the answer is kept as its first 256 characters");
  assert.ok(receiver.responseBody.startsWith(attempt.response_excerpt));
});

test("the log filters by status and by event type or family, with the list conventions", async () => {
  receiver.statuses = [500];
  expectStatus(
    await call(fx.app, "POST", `/webhooks/${fx.tenants.app.id}/${endpointId}/test`, {
      token: fx.tenants.owner.token,
    }),
    202,
  );
  await waitForDeliveries(fx.app, fx.tenants.owner.token, fx.tenants.app.id, endpointId, (deliveries) =>
    deliveries.some((d) => d.event.type === "webhook.test" && d.status === "retrying"),
  );
  const types = (answer: { body: { event: { type: string } }[] }) => answer.body.map((d) => d.event.type);

  const retrying = expectStatus(await log("?status=retrying"), 200);
  assert.deepEqual(
    retrying.map((d: { event: { type: string } }) => d.event.type),
    ["webhook.test"],
  );
  const succeeded = await log("?status=succeeded");
  assert.deepEqual(types(succeeded), ["payment.pending"]);
  assert.equal(succeeded.headers["x-total-count"], "1", "the count is of the filtered list");
  assert.deepEqual(types(await log("?type=webhook.test")), ["webhook.test"]);
  assert.deepEqual(types(await log("?type=payment.*")), ["payment.pending"]);
  assert.deepEqual(types(await log("?type=payment.paid")), []);
  assert.deepEqual(types(await log("?type=payment.pending&status=failed")), []);
  // Paged by cursor within the filter.
  const first = await log("?type=payment.*&limit=1");
  assert.equal(first.body.length, 1);
  assert.deepEqual(types(await log(`?type=payment.*&starting_after=${first.body[0].id}`)), []);

  const wrongStatus = assertProblem(await log("?status=delivered"), 400, "validation_failed");
  assert.equal(wrongStatus.errors[0].path, "/query/status");
  const wrongType = assertProblem(await log("?type=payment.nope"), 400, "validation_failed");
  assert.equal(wrongType.errors[0].path, "/query/type");
  // Developers read the log; another app's owner learns nothing.
  expectStatus(await log("?status=retrying", fx.tenants.developer.token), 200);
  assertProblem(await log("?status=retrying", fx.tenants.outsider.token), 404, "not_found");
});
