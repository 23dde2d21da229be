import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { buildApplication } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/platform/db/index.ts";
import { createLogger } from "../../src/platform/log.ts";
import { onPostgres } from "../helpers/app.ts";
import { checkRouteBasics, eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";

const fx = useTestApp();

const basic = (key: string) => ({ authorization: `Basic ${Buffer.from(`${key}:`).toString("base64")}` });

describe("API keys", () => {
  test("a key is shown once, listed without it, and works as Bearer and as Basic", async () => {
    const created = expectStatus(
      await call(fx.app, "POST", `/apps/${fx.tenants.app.id}/api-keys`, {
        token: fx.tenants.owner.token,
        body: { name: "backend" },
      }),
      201,
    );
    assert.deepEqual(Object.keys(created).sort(), ["created_at", "id", "key", "name", "prefix"]);
    assert.match(created.key, /^sk_test_[A-Za-z0-9_-]{43}$/, "sandbox keys say so");
    assert.ok(created.key.startsWith(created.prefix));
    const list = await call(fx.app, "GET", `/apps/${fx.tenants.app.id}/api-keys`, {
      token: fx.tenants.owner.token,
    });
    assert.ok(!list.text.includes(created.key), "the list never carries the key");
    assert.equal(expectStatus(list, 200)[0].id, created.id);
    expectStatus(await call(fx.app, "GET", `/apps/${fx.tenants.app.id}`, { token: created.key }), 200);
    expectStatus(
      await call(fx.app, "GET", `/apps/${fx.tenants.app.id}`, { headers: basic(created.key) }),
      200,
    );
    assert.ok(!fx.app.logs.join("").includes(created.key), "the key never reaches the logs");
  });

  test("a revoked key gets 401 at once", async () => {
    const created = expectStatus(
      await call(fx.app, "POST", `/apps/${fx.tenants.app.id}/api-keys`, {
        token: fx.tenants.developer.token,
        body: { name: "temp" },
      }),
      201,
    );
    expectStatus(await call(fx.app, "GET", `/apps/${fx.tenants.app.id}`, { token: created.key }), 200);
    expectStatus(
      await call(fx.app, "DELETE", `/apps/${fx.tenants.app.id}/api-keys/${created.id}`, {
        token: fx.tenants.developer.token,
      }),
      204,
    );
    assertProblem(
      await call(fx.app, "GET", `/apps/${fx.tenants.app.id}`, { token: created.key }),
      401,
      "unauthenticated",
    );
    assertProblem(
      await call(fx.app, "GET", `/apps/${fx.tenants.app.id}`, { headers: basic(created.key) }),
      401,
      "unauthenticated",
    );
    const listed = expectStatus(
      await call(fx.app, "GET", `/apps/${fx.tenants.app.id}/api-keys?limit=100`, {
        token: fx.tenants.owner.token,
      }),
      200,
    );
    assert.ok(listed.find((k: { id: string }) => k.id === created.id).revoked_at);
  });

  test("developers revoke only their own keys; owners any; keys manage no keys", async () => {
    const ownersKey = expectStatus(
      await call(fx.app, "POST", `/apps/${fx.tenants.app.id}/api-keys`, {
        token: fx.tenants.owner.token,
        body: { name: "owner's" },
      }),
      201,
    );
    assertProblem(
      await call(fx.app, "DELETE", `/apps/${fx.tenants.app.id}/api-keys/${ownersKey.id}`, {
        token: fx.tenants.developer.token,
      }),
      403,
      "forbidden",
    );
    assertProblem(
      await call(fx.app, "POST", `/apps/${fx.tenants.app.id}/api-keys`, {
        token: ownersKey.key,
        body: { name: "x" },
      }),
      403,
      "forbidden",
    );
    assertProblem(
      await call(fx.app, "GET", `/apps/${fx.tenants.app.id}/api-keys`, { token: ownersKey.key }),
      403,
      "forbidden",
    );
    const devKey = expectStatus(
      await call(fx.app, "POST", `/apps/${fx.tenants.app.id}/api-keys`, {
        token: fx.tenants.developer.token,
        body: { name: "dev's" },
      }),
      201,
    );
    expectStatus(
      await call(fx.app, "DELETE", `/apps/${fx.tenants.app.id}/api-keys/${devKey.id}`, {
        token: fx.tenants.owner.token,
      }),
      204,
    );
  });

  test("a key is renamed in place: the same key keeps working; developers rename only their own", async () => {
    const app = fx.tenants.app.id;
    const created = expectStatus(
      await call(fx.app, "POST", `/apps/${app}/api-keys`, {
        token: fx.tenants.developer.token,
        body: { name: "staging" },
      }),
      201,
    );
    const renamed = expectStatus(
      await call(fx.app, "PATCH", `/apps/${app}/api-keys/${created.id}`, {
        token: fx.tenants.developer.token,
        body: { name: "production server" },
      }),
      200,
    );
    assert.equal(renamed.id, created.id);
    assert.equal(renamed.name, "production server");
    assert.equal(renamed.prefix, created.prefix, "the key itself is unchanged");
    assert.equal(renamed.key, undefined, "a rename never answers the key");
    const listed = expectStatus(
      await call(fx.app, "GET", `/apps/${app}/api-keys?limit=100`, { token: fx.tenants.owner.token }),
      200,
    );
    assert.equal(listed.find((k: { id: string }) => k.id === created.id).name, "production server");
    expectStatus(await call(fx.app, "GET", `/apps/${app}`, { token: created.key }), 200);

    // An owner renames anyone's key; a developer only their own; a key renames none; a name is needed.
    expectStatus(
      await call(fx.app, "PATCH", `/apps/${app}/api-keys/${created.id}`, {
        token: fx.tenants.owner.token,
        body: { name: "renamed by the owner" },
      }),
      200,
    );
    const ownersKey = expectStatus(
      await call(fx.app, "POST", `/apps/${app}/api-keys`, {
        token: fx.tenants.owner.token,
        body: { name: "owner's" },
      }),
      201,
    );
    assertProblem(
      await call(fx.app, "PATCH", `/apps/${app}/api-keys/${ownersKey.id}`, {
        token: fx.tenants.developer.token,
        body: { name: "mine now" },
      }),
      403,
      "forbidden",
    );
    assertProblem(
      await call(fx.app, "PATCH", `/apps/${app}/api-keys/${ownersKey.id}`, {
        token: ownersKey.key,
        body: { name: "self" },
      }),
      403,
      "forbidden",
    );
    const empty = assertProblem(
      await call(fx.app, "PATCH", `/apps/${app}/api-keys/${ownersKey.id}`, {
        token: fx.tenants.owner.token,
        body: { name: "" },
      }),
      400,
      "validation_failed",
    );
    assert.equal(empty.errors[0].path, "/body/name");
    assertProblem(
      await call(fx.app, "PATCH", `/apps/${app}/api-keys/key_nope`, {
        token: fx.tenants.owner.token,
        body: { name: "x" },
      }),
      404,
      "not_found",
    );
    // Another app's key, asked through this app or its own: 404 either way.
    const outsiderKey = expectStatus(
      await call(fx.app, "POST", `/apps/${fx.tenants.otherApp.id}/api-keys`, {
        token: fx.tenants.outsider.token,
        body: { name: "theirs" },
      }),
      201,
    );
    for (const appId of [app, fx.tenants.otherApp.id]) {
      assertProblem(
        await call(fx.app, "PATCH", `/apps/${appId}/api-keys/${outsiderKey.id}`, {
          token: fx.tenants.owner.token,
          body: { name: "x" },
        }),
        404,
        "not_found",
      );
    }
    const log = expectStatus(
      await call(fx.app, "GET", `/apps/${app}/audit-log?action=api_key.rename`, {
        token: fx.tenants.owner.token,
      }),
      200,
    );
    assert.deepEqual(
      log.map((e: { target_id: string }) => e.target_id),
      [created.id, created.id],
      "each rename is in the audit log",
    );
  });

  test("tenancy: another app's keys are 404, and a key never reaches another app", async () => {
    const outsiderKey = expectStatus(
      await call(fx.app, "POST", `/apps/${fx.tenants.otherApp.id}/api-keys`, {
        token: fx.tenants.outsider.token,
        body: { name: "theirs" },
      }),
      201,
    );
    assertProblem(
      await call(fx.app, "GET", `/apps/${fx.tenants.otherApp.id}/api-keys`, {
        token: fx.tenants.owner.token,
      }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "DELETE", `/apps/${fx.tenants.otherApp.id}/api-keys/${outsiderKey.id}`, {
        token: fx.tenants.owner.token,
      }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "DELETE", `/apps/${fx.tenants.app.id}/api-keys/${outsiderKey.id}`, {
        token: fx.tenants.owner.token,
      }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "GET", `/members/${fx.tenants.app.id}`, { token: outsiderKey.key }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "POST", `/apps/${fx.tenants.app.id}/api-keys`, {
        token: fx.tenants.outsider.token,
        body: { name: "x" },
      }),
      404,
      "not_found",
    );
  });

  test("basics for every route", async () => {
    const token = fx.tenants.owner.token;
    await checkRouteBasics(fx.app, {
      method: "POST",
      url: `/apps/${fx.tenants.app.id}/api-keys`,
      token,
      body: { name: "k" },
    });
    await checkRouteBasics(fx.app, {
      method: "GET",
      url: `/apps/${fx.tenants.app.id}/api-keys`,
      token,
      list: true,
    });
    await checkRouteBasics(fx.app, {
      method: "PATCH",
      url: `/apps/${fx.tenants.app.id}/api-keys/key_x`,
      token,
      body: { name: "k" },
    });
    await checkRouteBasics(fx.app, {
      method: "DELETE",
      url: `/apps/${fx.tenants.app.id}/api-keys/key_x`,
      token,
    });
  });
});

describe("revocation across processes", {
  skip: !onPostgres && "needs PostgreSQL: the embedded database serves one process",
}, () => {
  test("a key revoked through one server is refused by another that had it cached", async () => {
    const second = await buildApplication({
      config: loadConfig({ SANDBOX: "true", LOG_LEVEL: "silent", RUN_WORKER: "false" }),
      logger: createLogger("silent"),
      database: await openDatabase({ databaseUrl: fx.app.connectionString }),
    });
    await second.start();
    try {
      const created = expectStatus(
        await call(fx.app, "POST", `/apps/${fx.tenants.app.id}/api-keys`, {
          token: fx.tenants.owner.token,
          body: { name: "shared" },
        }),
        201,
      );
      const onSecond = () =>
        second.app.inject({
          method: "GET",
          url: `/apps/${fx.tenants.app.id}`,
          headers: { authorization: `Bearer ${created.key}` },
        });
      assert.equal((await onSecond()).statusCode, 200, "the second server resolves and caches the key");
      expectStatus(
        await call(fx.app, "DELETE", `/apps/${fx.tenants.app.id}/api-keys/${created.id}`, {
          token: fx.tenants.owner.token,
        }),
        204,
      );
      const started = Date.now();
      await eventually(async () => (await onSecond()).statusCode === 401, 2000);
      assert.ok(Date.now() - started < 2000);
    } finally {
      await second.close();
    }
  });
});
