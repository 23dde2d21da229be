import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, createApp, expectStatus, signup } from "../helpers/http.ts";
import { CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { apiKeyOf, createPrice } from "../helpers/prices.ts";

// A webhook endpoint on this machine is refused otherwise; nothing is ever delivered to it here.
const fx = useTestApp({ WEBHOOKS_ALLOW_LOOPBACK: "true" });

interface AuditEvent {
  id: string;
  app_id: string;
  actor: { type: string; id: string };
  credential_id: string;
  action: string;
  target_id: string | null;
  ip: string | null;
  created_at: string;
}

async function auditLog(token: string, appId: string, query = ""): Promise<AuditEvent[]> {
  return expectStatus(await call(fx.app, "GET", `/apps/${appId}/audit-log${query}`, { token }), 200);
}

describe("the audit log", () => {
  test("records who changed what, with which credential and from where, and outlives the record", async () => {
    const owner = await signup(fx.app);
    const app = await createApp(fx.app, owner.token);
    const me = expectStatus(await call(fx.app, "GET", "/users/me", { token: owner.token }), 200);
    const [session] = expectStatus(
      await call(fx.app, "GET", "/users/me/sessions", { token: owner.token }),
      200,
    );

    const key = expectStatus(
      await call(fx.app, "POST", `/apps/${app.id}/api-keys`, {
        token: owner.token,
        body: { name: "server" },
      }),
      201,
    );
    const price = await createPrice(fx.app, key.key, app.id);
    expectStatus(
      await call(fx.app, "PATCH", `/prices/${app.id}/${price.id}`, {
        token: key.key,
        body: { name: "Renamed" },
      }),
      200,
    );
    expectStatus(await call(fx.app, "DELETE", `/prices/${app.id}/${price.id}`, { token: owner.token }), 204);
    expectStatus(
      await call(fx.app, "PATCH", `/apps/${app.id}`, { token: owner.token, body: { app_fee: 1 } }),
      200,
    );
    const invite = expectStatus(
      await call(fx.app, "POST", `/members/${app.id}`, {
        token: owner.token,
        body: { email: "audited@example.com", role: "developer" },
      }),
      201,
    );
    expectStatus(
      await call(fx.app, "PATCH", `/members/${app.id}/${invite.id}`, {
        token: owner.token,
        body: { role: "owner" },
      }),
      200,
    );
    expectStatus(
      await call(fx.app, "DELETE", `/members/${app.id}/${invite.id}`, { token: owner.token }),
      204,
    );
    const hook = expectStatus(
      await call(fx.app, "POST", `/webhooks/${app.id}`, {
        token: owner.token,
        body: { url: "http://127.0.0.1:9/in", events: ["payment.*"] },
      }),
      201,
    );
    expectStatus(await call(fx.app, "DELETE", `/webhooks/${app.id}/${hook.id}`, { token: owner.token }), 204);
    expectStatus(
      await call(fx.app, "DELETE", `/apps/${app.id}/api-keys/${key.id}`, { token: owner.token }),
      204,
    );

    const log = await auditLog(owner.token, app.id);
    assert.deepEqual(log.map((e) => e.action).reverse(), [
      "app.create",
      "api_key.create",
      "price.create",
      "price.update",
      "price.delete",
      "app.update",
      "member.invite",
      "member.role.owner",
      "member.remove",
      "webhook.create",
      "webhook.delete",
      "api_key.revoke",
    ]);
    const byKey = log.find((e) => e.action === "price.create");
    assert.deepEqual(byKey?.actor, { type: "api_key", id: key.id });
    assert.equal(byKey?.credential_id, key.id);
    assert.equal(byKey?.target_id, price.id, "the deleted price is still named");
    const byOwner = log.find((e) => e.action === "member.remove");
    assert.deepEqual(byOwner?.actor, { type: "user", id: me.id });
    assert.equal(byOwner?.credential_id, session.id);
    assert.equal(byOwner?.target_id, invite.id);
    assert.equal(byOwner?.ip, "127.0.0.1");
    for (const event of log) {
      assert.match(event.id, /^aud_/);
      assert.equal(event.app_id, app.id);
    }

    // Filters: an action, a family, an actor, a time range; and the paging conventions.
    assert.deepEqual(
      (await auditLog(owner.token, app.id, "?action=price.delete")).map((e) => e.target_id),
      [price.id],
    );
    assert.equal((await auditLog(owner.token, app.id, "?action=member.*")).length, 3);
    assert.deepEqual(
      (await auditLog(owner.token, app.id, `?actor=${key.id}`)).map((e) => e.action),
      ["price.update", "price.create"],
    );
    const middle = log[6].created_at;
    const since = await auditLog(owner.token, app.id, `?since=${encodeURIComponent(middle)}`);
    assert.ok(since.every((e) => e.created_at >= middle) && since.length >= 7);
    const until = await auditLog(owner.token, app.id, `?until=${encodeURIComponent(middle)}`);
    assert.ok(until.every((e) => e.created_at < middle) && until.length >= 1);
    const page = await call(fx.app, "GET", `/apps/${app.id}/audit-log?limit=5`, { token: owner.token });
    assert.equal(expectStatus(page, 200).length, 5);
    assert.equal(page.headers["x-total-count"], String(log.length));
    const next = await auditLog(owner.token, app.id, `?limit=5&starting_after=${page.body[4].id}`);
    assert.deepEqual(
      next.map((e) => e.id),
      log.slice(5, 10).map((e) => e.id),
    );
    assertProblem(
      await call(fx.app, "GET", `/apps/${app.id}/audit-log?action=DROP TABLE`, { token: owner.token }),
      400,
      "validation_failed",
    );
  });

  test("a payment's cancel, refund and retry are recorded; only owners read the log", async () => {
    const key = await fx.key();
    const price = await createPrice(fx.app, key, fx.tenants.app.id);
    const cancelled = await createPayment(fx.app, key, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
    });
    expectStatus(
      await call(fx.app, "POST", `/payments/${fx.tenants.app.id}/${cancelled.id}/cancel`, {
        token: key,
        body: {},
      }),
      200,
    );
    const paid = await createPayment(fx.app, key, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
    });
    expectStatus(await confirm(fx.app, key, fx.tenants.app.id, paid.id, card(CARDS.ok)), 200);
    await waitForStatus(fx.app, key, fx.tenants.app.id, paid.id, "paid");
    expectStatus(
      await call(fx.app, "POST", `/payments/${fx.tenants.app.id}/${paid.id}/refund`, {
        token: fx.tenants.owner.token,
        body: {},
      }),
      200,
    );
    const log = await auditLog(fx.tenants.owner.token, fx.tenants.app.id, "?action=payment.*");
    assert.deepEqual(
      log.map((e) => [e.action, e.target_id]),
      [
        ["payment.refund", paid.id],
        ["payment.cancel", cancelled.id],
      ],
    );

    assertProblem(
      await call(fx.app, "GET", `/apps/${fx.tenants.app.id}/audit-log`, {
        token: fx.tenants.developer.token,
      }),
      403,
      "forbidden",
    );
    assertProblem(
      await call(fx.app, "GET", `/apps/${fx.tenants.app.id}/audit-log`, { token: key }),
      403,
      "forbidden",
    );
    assertProblem(
      await call(fx.app, "GET", `/apps/${fx.tenants.app.id}/audit-log`, { token: fx.tenants.outsider.token }),
      404,
      "not_found",
    );
    // Another app's key is another tenant's: 404.
    const otherKey = await apiKeyOf(fx.app, fx.tenants.outsider.token, fx.tenants.otherApp.id);
    assertProblem(
      await call(fx.app, "GET", `/apps/${fx.tenants.app.id}/audit-log`, { token: otherKey }),
      404,
      "not_found",
    );
  });
});
