import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { emitEvent } from "../../src/modules/webhooks/events.ts";
import { webhookEndpoints } from "../../src/modules/webhooks/tables.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";

const URL_A = "http://127.0.0.1:9/a";

const fx = useTestApp({ WEBHOOKS_ALLOW_LOOPBACK: "true" });

const create = (token: string, appId: string, body: unknown) =>
  call(fx.app, "POST", `/webhooks/${appId}`, { token, body });

describe("happy paths", () => {
  test("create answers the secret once; get and list never do", async () => {
    const created = expectStatus(
      await create(fx.tenants.owner.token, fx.tenants.app.id, {
        url: URL_A,
        events: ["payment.*", "kyc.updated"],
      }),
      201,
    );
    assert.match(created.id, /^wh_/);
    assert.equal(created.app_id, fx.tenants.app.id);
    assert.equal(created.url, URL_A);
    assert.deepEqual(created.events, ["payment.*", "kyc.updated"]);
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);

    const one = expectStatus(
      await call(fx.app, "GET", `/webhooks/${fx.tenants.app.id}/${created.id}`, {
        token: fx.tenants.owner.token,
      }),
      200,
    );
    assert.equal(one.secret, null);
    assert.equal(one.url, URL_A);

    const list = await call(fx.app, "GET", `/webhooks/${fx.tenants.app.id}?limit=1`, {
      token: fx.tenants.developer.token,
    });
    expectStatus(list, 200);
    assert.equal(list.body.length, 1);
    assert.equal(list.body[0].secret, null);
    assert.equal(list.headers["x-total-count"], "1");
    assert.match(String(list.headers.link), /rel="first"/);

    // Stored sealed, never in clear; never logged.
    const [row] = await fx.app.deps.db.select().from(webhookEndpoints);
    assert.ok(!row.secretSealed.includes(created.secret.slice(6)));
    assert.ok(!fx.app.logs.join("").includes(created.secret.slice(6)));
  });

  test("a developer manages endpoints too (DECISIONS: developers edit every resource)", async () => {
    const created = expectStatus(
      await create(fx.tenants.developer.token, fx.tenants.app.id, { url: URL_A, events: ["*"] }),
      201,
    );
    const rotated = expectStatus(
      await call(fx.app, "POST", `/webhooks/${fx.tenants.app.id}/${created.id}/rotate-secret`, {
        token: fx.tenants.developer.token,
      }),
      200,
    );
    assert.notEqual(rotated.secret, created.secret);
    expectStatus(
      await call(fx.app, "DELETE", `/webhooks/${fx.tenants.app.id}/${created.id}`, {
        token: fx.tenants.developer.token,
      }),
      204,
    );
    assertProblem(
      await call(fx.app, "GET", `/webhooks/${fx.tenants.app.id}/${created.id}`, {
        token: fx.tenants.owner.token,
      }),
      404,
      "not_found",
    );
  });

  test("an API key of the app manages its endpoints; of another app, gets 404", async () => {
    const key = expectStatus(
      await call(fx.app, "POST", `/apps/${fx.tenants.app.id}/api-keys`, {
        token: fx.tenants.owner.token,
        body: { name: "ci" },
      }),
      201,
    ).key;
    const created = expectStatus(
      await create(key, fx.tenants.app.id, { url: URL_A, events: ["kyc.updated"] }),
      201,
    );
    expectStatus(
      await call(fx.app, "GET", `/webhooks/${fx.tenants.app.id}/${created.id}`, { token: key }),
      200,
    );
    const otherKey = expectStatus(
      await call(fx.app, "POST", `/apps/${fx.tenants.otherApp.id}/api-keys`, {
        token: fx.tenants.outsider.token,
        body: { name: "x" },
      }),
      201,
    ).key;
    assertProblem(
      await call(fx.app, "GET", `/webhooks/${fx.tenants.app.id}/${created.id}`, { token: otherKey }),
      404,
      "not_found",
    );
  });

  test("the delivery log lists deliveries newest first with their event", async () => {
    const endpoint = expectStatus(
      await create(fx.tenants.owner.token, fx.tenants.app.id, { url: URL_A, events: ["auction.*"] }),
      201,
    );
    await fx.app.deps.db.transaction(async (tx) => {
      await emitEvent(fx.app.deps, tx, {
        appId: fx.tenants.app.id,
        type: "auction.bid_placed",
        data: { bid: 1 },
      });
      await emitEvent(fx.app.deps, tx, { appId: fx.tenants.app.id, type: "auction.ended", data: { bid: 2 } });
      await emitEvent(fx.app.deps, tx, { appId: fx.tenants.app.id, type: "kyc.updated", data: {} });
    });
    const log = await call(fx.app, "GET", `/webhooks/${fx.tenants.app.id}/${endpoint.id}/deliveries`, {
      token: fx.tenants.owner.token,
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
      await create(fx.tenants.owner.token, fx.tenants.app.id, { url: URL_A, events: ["kyc.updated"] }),
      201,
    );
    await assert.rejects(
      fx.app.deps.db.transaction(async (tx) => {
        await emitEvent(fx.app.deps, tx, { appId: fx.tenants.app.id, type: "kyc.updated", data: {} });
        throw new Error("the caller's change failed");
      }),
    );
    const log = await call(fx.app, "GET", `/webhooks/${fx.tenants.app.id}/${endpoint.id}/deliveries`, {
      token: fx.tenants.owner.token,
    });
    assert.deepEqual(expectStatus(log, 200), []);
  });
});

describe("errors", () => {
  test("unknown field, unknown event type, empty events, bad page", async () => {
    const extra = assertProblem(
      await create(fx.tenants.owner.token, fx.tenants.app.id, { url: URL_A, events: ["*"], secret: "mine" }),
      400,
      "validation_failed",
    );
    assert.equal(extra.errors[0].path, "/body/secret");
    const unknown = assertProblem(
      await create(fx.tenants.owner.token, fx.tenants.app.id, {
        url: URL_A,
        events: ["payment.*", "payment.exploded"],
      }),
      400,
      "validation_failed",
    );
    assert.equal(unknown.errors[0].path, "/body/events/1");
    assertProblem(
      await create(fx.tenants.owner.token, fx.tenants.app.id, { url: URL_A, events: [] }),
      400,
      "validation_failed",
    );
    assertProblem(
      await create(fx.tenants.owner.token, fx.tenants.app.id, { url: URL_A, events: ["x.*"] }),
      400,
      "validation_failed",
    );
    assertProblem(
      await create(fx.tenants.owner.token, fx.tenants.app.id, { url: URL_A }),
      400,
      "validation_failed",
    );
    assertProblem(
      await call(fx.app, "GET", `/webhooks/${fx.tenants.app.id}?limit=101`, {
        token: fx.tenants.owner.token,
      }),
      400,
      "validation_failed",
    );
  });

  test("unknown endpoint or delivery is 404", async () => {
    const token = fx.tenants.owner.token;
    assertProblem(
      await call(fx.app, "GET", `/webhooks/${fx.tenants.app.id}/wh_nope`, { token }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "DELETE", `/webhooks/${fx.tenants.app.id}/wh_nope`, { token }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "POST", `/webhooks/${fx.tenants.app.id}/wh_nope/rotate-secret`, { token }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "GET", `/webhooks/${fx.tenants.app.id}/wh_nope/deliveries`, { token }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "POST", `/webhooks/${fx.tenants.app.id}/deliveries/whd_nope/replay`, { token }),
      404,
      "not_found",
    );
  });
});

describe("security", () => {
  test("no credential is 401 on every route", async () => {
    for (const [method, url] of [
      ["POST", `/webhooks/${fx.tenants.app.id}`],
      ["GET", `/webhooks/${fx.tenants.app.id}`],
      ["GET", `/webhooks/${fx.tenants.app.id}/wh_x`],
      ["DELETE", `/webhooks/${fx.tenants.app.id}/wh_x`],
      ["POST", `/webhooks/${fx.tenants.app.id}/wh_x/rotate-secret`],
      ["GET", `/webhooks/${fx.tenants.app.id}/wh_x/deliveries`],
      ["POST", `/webhooks/${fx.tenants.app.id}/deliveries/whd_x/replay`],
    ]) {
      const answer = await call(
        fx.app,
        method,
        url,
        method === "POST" && url.endsWith(fx.tenants.app.id) ? { body: {} } : {},
      );
      assertProblem(answer, 401, "unauthenticated");
    }
  });

  test("another tenant's app, endpoints and deliveries are 404", async () => {
    const endpoint = expectStatus(
      await create(fx.tenants.owner.token, fx.tenants.app.id, { url: URL_A, events: ["kyc.updated"] }),
      201,
    );
    const { deliveryIds } = await fx.app.deps.db.transaction((tx) =>
      emitEvent(fx.app.deps, tx, { appId: fx.tenants.app.id, type: "kyc.updated", data: {} }),
    );
    const token = fx.tenants.outsider.token;
    assertProblem(await create(token, fx.tenants.app.id, { url: URL_A, events: ["*"] }), 404, "not_found");
    assertProblem(await call(fx.app, "GET", `/webhooks/${fx.tenants.app.id}`, { token }), 404, "not_found");
    assertProblem(
      await call(fx.app, "GET", `/webhooks/${fx.tenants.app.id}/${endpoint.id}`, { token }),
      404,
      "not_found",
    );
    // Through the outsider's own app: the id exists, but not in that app.
    const other = fx.tenants.otherApp.id;
    assertProblem(
      await call(fx.app, "GET", `/webhooks/${other}/${endpoint.id}`, { token }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "DELETE", `/webhooks/${other}/${endpoint.id}`, { token }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "POST", `/webhooks/${other}/${endpoint.id}/rotate-secret`, { token }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "GET", `/webhooks/${other}/${endpoint.id}/deliveries`, { token }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "POST", `/webhooks/${other}/deliveries/${deliveryIds[0]}/replay`, { token }),
      404,
      "not_found",
    );
    // Still there for its owner.
    expectStatus(
      await call(fx.app, "GET", `/webhooks/${fx.tenants.app.id}/${endpoint.id}`, {
        token: fx.tenants.owner.token,
      }),
      200,
    );
  });
});
