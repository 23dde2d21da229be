import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { emitEvent } from "../../src/modules/webhooks/events.ts";
import { webhookEndpoints } from "../../src/modules/webhooks/tables.ts";
import { buildTestApp, type TestApp } from "../helpers/app.ts";
import { assertProblem, call, expectStatus, tenantFixture } from "../helpers/http.ts";

let t: TestApp;
let f: Awaited<ReturnType<typeof tenantFixture>>;
const URL_A = "http://127.0.0.1:9/a";

before(async () => {
  t = await buildTestApp({ WEBHOOKS_ALLOW_LOOPBACK: "true" });
  f = await tenantFixture(t);
});
after(async () => t.close());

const create = (token: string, appId: string, body: unknown) =>
  call(t, "POST", `/webhooks/${appId}`, { token, body });

describe("happy paths", () => {
  test("create answers the secret once; get and list never do", async () => {
    const created = expectStatus(
      await create(f.owner.token, f.app.id, { url: URL_A, events: ["payment.*", "kyc.updated"] }),
      201,
    );
    assert.match(created.id, /^wh_/);
    assert.equal(created.app_id, f.app.id);
    assert.equal(created.url, URL_A);
    assert.deepEqual(created.events, ["payment.*", "kyc.updated"]);
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);

    const one = expectStatus(
      await call(t, "GET", `/webhooks/${f.app.id}/${created.id}`, { token: f.owner.token }),
      200,
    );
    assert.equal(one.secret, null);
    assert.equal(one.url, URL_A);

    const list = await call(t, "GET", `/webhooks/${f.app.id}?limit=1`, { token: f.developer.token });
    expectStatus(list, 200);
    assert.equal(list.body.length, 1);
    assert.equal(list.body[0].secret, null);
    assert.equal(list.headers["x-total-count"], "1");
    assert.match(String(list.headers.link), /rel="first"/);

    // Stored sealed, never in clear; never logged.
    const [row] = await t.deps.db.select().from(webhookEndpoints);
    assert.ok(!row.secretSealed.includes(created.secret.slice(6)));
    assert.ok(!t.logs.join("").includes(created.secret.slice(6)));
  });

  test("a developer manages endpoints too (DECISIONS: developers edit every resource)", async () => {
    const created = expectStatus(
      await create(f.developer.token, f.app.id, { url: URL_A, events: ["*"] }),
      201,
    );
    const rotated = expectStatus(
      await call(t, "POST", `/webhooks/${f.app.id}/${created.id}/rotate-secret`, {
        token: f.developer.token,
      }),
      200,
    );
    assert.notEqual(rotated.secret, created.secret);
    expectStatus(
      await call(t, "DELETE", `/webhooks/${f.app.id}/${created.id}`, { token: f.developer.token }),
      204,
    );
    assertProblem(
      await call(t, "GET", `/webhooks/${f.app.id}/${created.id}`, { token: f.owner.token }),
      404,
      "not_found",
    );
  });

  test("an API key of the app manages its endpoints; of another app, gets 404", async () => {
    const key = expectStatus(
      await call(t, "POST", `/apps/${f.app.id}/api-keys`, { token: f.owner.token, body: { name: "ci" } }),
      201,
    ).key;
    const created = expectStatus(await create(key, f.app.id, { url: URL_A, events: ["kyc.updated"] }), 201);
    expectStatus(await call(t, "GET", `/webhooks/${f.app.id}/${created.id}`, { token: key }), 200);
    const otherKey = expectStatus(
      await call(t, "POST", `/apps/${f.otherApp.id}/api-keys`, {
        token: f.outsider.token,
        body: { name: "x" },
      }),
      201,
    ).key;
    assertProblem(
      await call(t, "GET", `/webhooks/${f.app.id}/${created.id}`, { token: otherKey }),
      404,
      "not_found",
    );
  });

  test("the delivery log lists deliveries newest first with their event", async () => {
    const endpoint = expectStatus(
      await create(f.owner.token, f.app.id, { url: URL_A, events: ["auction.*"] }),
      201,
    );
    await t.deps.db.transaction(async (tx) => {
      await emitEvent(t.deps, tx, { appId: f.app.id, type: "auction.bid_placed", data: { bid: 1 } });
      await emitEvent(t.deps, tx, { appId: f.app.id, type: "auction.ended", data: { bid: 2 } });
      await emitEvent(t.deps, tx, { appId: f.app.id, type: "kyc.updated", data: {} });
    });
    const log = await call(t, "GET", `/webhooks/${f.app.id}/${endpoint.id}/deliveries`, {
      token: f.owner.token,
    });
    expectStatus(log, 200);
    assert.equal(log.headers["x-total-count"], "2");
    assert.deepEqual(
      log.body.map((d: any) => d.event.type),
      ["auction.ended", "auction.bid_placed"],
    );
  });

  test("an event emitted in a transaction that rolls back leaves no trace", async () => {
    const endpoint = expectStatus(
      await create(f.owner.token, f.app.id, { url: URL_A, events: ["kyc.updated"] }),
      201,
    );
    await assert.rejects(
      t.deps.db.transaction(async (tx) => {
        await emitEvent(t.deps, tx, { appId: f.app.id, type: "kyc.updated", data: {} });
        throw new Error("the caller's change failed");
      }),
    );
    const log = await call(t, "GET", `/webhooks/${f.app.id}/${endpoint.id}/deliveries`, {
      token: f.owner.token,
    });
    assert.deepEqual(expectStatus(log, 200), []);
  });
});

describe("errors", () => {
  test("unknown field, unknown event type, empty events, bad page", async () => {
    const extra = assertProblem(
      await create(f.owner.token, f.app.id, { url: URL_A, events: ["*"], secret: "mine" }),
      400,
      "validation_failed",
    );
    assert.equal(extra.errors[0].path, "/body/secret");
    const unknown = assertProblem(
      await create(f.owner.token, f.app.id, { url: URL_A, events: ["payment.*", "payment.exploded"] }),
      400,
      "validation_failed",
    );
    assert.equal(unknown.errors[0].path, "/body/events/1");
    assertProblem(
      await create(f.owner.token, f.app.id, { url: URL_A, events: [] }),
      400,
      "validation_failed",
    );
    assertProblem(
      await create(f.owner.token, f.app.id, { url: URL_A, events: ["x.*"] }),
      400,
      "validation_failed",
    );
    assertProblem(await create(f.owner.token, f.app.id, { url: URL_A }), 400, "validation_failed");
    assertProblem(
      await call(t, "GET", `/webhooks/${f.app.id}?limit=101`, { token: f.owner.token }),
      400,
      "validation_failed",
    );
  });

  test("unknown endpoint or delivery is 404", async () => {
    const token = f.owner.token;
    assertProblem(await call(t, "GET", `/webhooks/${f.app.id}/wh_nope`, { token }), 404, "not_found");
    assertProblem(await call(t, "DELETE", `/webhooks/${f.app.id}/wh_nope`, { token }), 404, "not_found");
    assertProblem(
      await call(t, "POST", `/webhooks/${f.app.id}/wh_nope/rotate-secret`, { token }),
      404,
      "not_found",
    );
    assertProblem(
      await call(t, "GET", `/webhooks/${f.app.id}/wh_nope/deliveries`, { token }),
      404,
      "not_found",
    );
    assertProblem(
      await call(t, "POST", `/webhooks/${f.app.id}/deliveries/whd_nope/replay`, { token }),
      404,
      "not_found",
    );
  });
});

describe("security", () => {
  test("no credential is 401 on every route", async () => {
    for (const [method, url] of [
      ["POST", `/webhooks/${f.app.id}`],
      ["GET", `/webhooks/${f.app.id}`],
      ["GET", `/webhooks/${f.app.id}/wh_x`],
      ["DELETE", `/webhooks/${f.app.id}/wh_x`],
      ["POST", `/webhooks/${f.app.id}/wh_x/rotate-secret`],
      ["GET", `/webhooks/${f.app.id}/wh_x/deliveries`],
      ["POST", `/webhooks/${f.app.id}/deliveries/whd_x/replay`],
    ]) {
      const answer = await call(
        t,
        method,
        url,
        method === "POST" && url.endsWith(f.app.id) ? { body: {} } : {},
      );
      assertProblem(answer, 401, "unauthenticated");
    }
  });

  test("another tenant's app, endpoints and deliveries are 404", async () => {
    const endpoint = expectStatus(
      await create(f.owner.token, f.app.id, { url: URL_A, events: ["kyc.updated"] }),
      201,
    );
    const { deliveryIds } = await t.deps.db.transaction((tx) =>
      emitEvent(t.deps, tx, { appId: f.app.id, type: "kyc.updated", data: {} }),
    );
    const token = f.outsider.token;
    assertProblem(await create(token, f.app.id, { url: URL_A, events: ["*"] }), 404, "not_found");
    assertProblem(await call(t, "GET", `/webhooks/${f.app.id}`, { token }), 404, "not_found");
    assertProblem(await call(t, "GET", `/webhooks/${f.app.id}/${endpoint.id}`, { token }), 404, "not_found");
    // Through the outsider's own app: the id exists, but not in that app.
    const other = f.otherApp.id;
    assertProblem(await call(t, "GET", `/webhooks/${other}/${endpoint.id}`, { token }), 404, "not_found");
    assertProblem(await call(t, "DELETE", `/webhooks/${other}/${endpoint.id}`, { token }), 404, "not_found");
    assertProblem(
      await call(t, "POST", `/webhooks/${other}/${endpoint.id}/rotate-secret`, { token }),
      404,
      "not_found",
    );
    assertProblem(
      await call(t, "GET", `/webhooks/${other}/${endpoint.id}/deliveries`, { token }),
      404,
      "not_found",
    );
    assertProblem(
      await call(t, "POST", `/webhooks/${other}/deliveries/${deliveryIds[0]}/replay`, { token }),
      404,
      "not_found",
    );
    // Still there for its owner.
    expectStatus(await call(t, "GET", `/webhooks/${f.app.id}/${endpoint.id}`, { token: f.owner.token }), 200);
  });
});
