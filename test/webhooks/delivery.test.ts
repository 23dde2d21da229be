import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { emitEvent } from "../../src/modules/webhooks/events.ts";
import { send } from "../../src/modules/webhooks/send.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, createApp, expectStatus, signup } from "../helpers/http.ts";
import { Receiver, verifyStandardWebhook, waitForDeliveries } from "../helpers/webhooks.ts";

let token: string;
let appId: string;

const fx = useTestApp(
  { WEBHOOKS_ALLOW_LOOPBACK: "true" },
  {
    tenants: false,
    async setUp() {
      const owner = await signup(fx.app);
      token = owner.token;
      appId = (await createApp(fx.app, token)).id;
    },
  },
);

async function register(url: string, events: string[]) {
  return expectStatus(
    await call(fx.app, "POST", `/webhooks/${appId}`, { token, body: { url, events } }),
    201,
  );
}

async function emit(type: "payment.paid" | "payment.hold" | "kyc.updated", data: Record<string, unknown>) {
  return fx.app.deps.db.transaction((tx) => emitEvent(fx.app.deps, tx, { appId, type, data }));
}

test("a delivery is signed per Standard Webhooks and logged; unsubscribed endpoints get nothing", async () => {
  const receiver = new Receiver();
  const other = new Receiver();
  try {
    const endpoint = await register(await receiver.start(), ["payment.*"]);
    await register(await other.start(), ["kyc.updated"]);
    const { eventId, deliveryIds } = await emit("payment.paid", { id: "pay_1", amount: 12.5 });
    assert.equal(deliveryIds.length, 1);
    const [delivery] = await waitForDeliveries(
      fx.app,
      token,
      appId,
      endpoint.id,
      (d) => d[0]?.status === "succeeded",
    );
    assert.equal(delivery.event.id, eventId);
    assert.equal(delivery.event.type, "payment.paid");
    assert.equal(delivery.attempt_count, 1);
    assert.equal(delivery.attempts[0].status_code, 200);
    assert.equal(delivery.attempts[0].error, null);
    assert.equal(delivery.attempts[0].response_excerpt, "ok");

    assert.equal(receiver.received.length, 1);
    const [hit] = receiver.received;
    assert.equal(hit.headers["webhook-id"], eventId);
    assert.match(String(hit.headers["webhook-signature"]), /^v1,[A-Za-z0-9+/]+=*$/);
    assert.ok(verifyStandardWebhook(endpoint.secret, hit.headers, hit.body), "signature verifies");
    assert.ok(!verifyStandardWebhook(endpoint.secret, hit.headers, hit.body.replace("12.5", "99")));
    const payload = JSON.parse(hit.body);
    assert.deepEqual(payload.data, { id: "pay_1", amount: 12.5 });
    assert.equal(payload.type, "payment.paid");
    assert.equal(other.received.length, 0);
  } finally {
    await receiver.stop();
    await other.stop();
  }
});

test("a failing receiver is retried with backoff until it accepts; every attempt is recorded", async () => {
  const receiver = new Receiver();
  receiver.statuses = [500, 200];
  receiver.responseBody = "x".repeat(5000);
  try {
    const endpoint = await register(await receiver.start(), ["payment.hold"]);
    await emit("payment.hold", { id: "pay_2" });
    const [delivery] = await waitForDeliveries(
      fx.app,
      token,
      appId,
      endpoint.id,
      (d) => d[0]?.status === "succeeded",
      60_000,
    );
    assert.equal(delivery.attempt_count, 2);
    assert.deepEqual(
      delivery.attempts.map((a: any) => a.status_code),
      [500, 200],
    );
    assert.match(delivery.attempts[0].error, /500/);
    assert.ok(delivery.attempts[0].response_excerpt.length <= 256);
    assert.equal(typeof delivery.attempts[0].duration_ms, "number");
    // The same message each time: receivers deduplicate on webhook-id.
    assert.equal(receiver.received.length, 2);
    assert.equal(receiver.received[0].headers["webhook-id"], receiver.received[1].headers["webhook-id"]);
    assert.equal(receiver.received[0].body, receiver.received[1].body);
    for (const hit of receiver.received)
      assert.ok(verifyStandardWebhook(endpoint.secret, hit.headers, hit.body));
  } finally {
    await receiver.stop();
  }
});

test("replay sends the event again as a new delivery; after rotation both secrets sign", async () => {
  const receiver = new Receiver();
  try {
    const endpoint = await register(await receiver.start(), ["kyc.updated"]);
    await emit("kyc.updated", { id: "kyc_1" });
    const [first] = await waitForDeliveries(
      fx.app,
      token,
      appId,
      endpoint.id,
      (d) => d[0]?.status === "succeeded",
    );
    const rotated = expectStatus(
      await call(fx.app, "POST", `/webhooks/${appId}/${endpoint.id}/rotate-secret`, { token }),
      200,
    );
    assert.match(rotated.secret, /^whsec_/);
    assert.notEqual(rotated.secret, endpoint.secret);
    const replay = expectStatus(
      await call(fx.app, "POST", `/webhooks/${appId}/deliveries/${first.id}/replay`, { token }),
      201,
    );
    assert.equal(replay.replay_of, first.id);
    assert.equal(replay.event.id, first.event.id);
    assert.equal(replay.status, "pending");
    await waitForDeliveries(
      fx.app,
      token,
      appId,
      endpoint.id,
      (d) => d.length === 2 && d.every((x) => x.status === "succeeded"),
    );
    assert.equal(receiver.received.length, 2);
    const again = receiver.received[1];
    assert.equal(again.headers["webhook-id"], first.event.id);
    assert.ok(verifyStandardWebhook(rotated.secret, again.headers, again.body), "new secret verifies");
    assert.ok(verifyStandardWebhook(endpoint.secret, again.headers, again.body), "old secret still verifies");
  } finally {
    await receiver.stop();
  }
});

test("redirects are not followed, a hanging receiver times out, the answer is cut short", async () => {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    if (req.url === "/redirect") {
      res.writeHead(302, { location: "http://127.0.0.1:1/elsewhere" });
      res.end();
    } else if (req.url === "/big") {
      res.writeHead(200);
      res.end("y".repeat(100_000));
    }
    // "/hang" never answers.
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const target = (path: string) => ({
    url: new URL(`http://127.0.0.1:${port}${path}`),
    address: "127.0.0.1",
    family: 4 as const,
  });
  try {
    const redirected = await send(target("/redirect"), {}, "{}");
    assert.equal(redirected.statusCode, 302);
    assert.equal(hits, 1);
    const hung = await send(target("/hang"), {}, "{}", 300);
    assert.equal(hung.statusCode, null);
    assert.match(hung.error!, /no answer within 300 ms/);
    const big = await send(target("/big"), {}, "{}");
    assert.equal(big.statusCode, 200);
    assert.equal(big.excerpt!.length, 256);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test("the connection goes to the vetted address, not to what the name resolves to later", async () => {
  const receiver = new Receiver();
  try {
    await receiver.start();
    const port = new URL(receiver.url).port;
    // The name does not resolve at all; only the pinned address makes this reach the receiver.
    const result = await send(
      { url: new URL(`http://hooks.invalid:${port}/hook`), address: "127.0.0.1", family: 4 },
      {},
      "{}",
    );
    assert.equal(result.statusCode, 200);
    assert.equal(receiver.received[0].headers.host, `hooks.invalid:${port}`);
  } finally {
    await receiver.stop();
  }
});
