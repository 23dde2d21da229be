import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkRouteBasics } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, createApp, expectStatus, signup } from "../helpers/http.ts";

const fx = useTestApp();

const APP_FIELDS = [
  "accent_color",
  "app_fee",
  "created_at",
  "display_name",
  "icon_url",
  "id",
  "is_member",
  "kyc_return_url",
  "name",
  "permissions",
  "require_two_factor",
  "type",
  "updated_at",
  "use_explorer",
  "user",
].sort();

describe("apps", () => {
  test("create answers 201 with the App shape; the creator is the owner", async () => {
    const { token, user } = await signup(fx.app);
    const app = await createApp(fx.app, token, {
      name: "Market",
      app_fee: 2.5,
      use_explorer: true,
      type: "marketplace",
      kyc_return_url: "https://shop.example.com/kyc-done",
    });
    assert.deepEqual(Object.keys(app).sort(), APP_FIELDS);
    assert.match(app.id, /^app_/);
    assert.equal(app.app_fee, 2.5);
    assert.equal(app.type, "marketplace");
    assert.equal(app.use_explorer, true);
    assert.equal(app.is_member, true);
    assert.deepEqual(app.permissions, {
      can_view: true,
      can_edit: true,
      can_delete: true,
      can_edit_members: true,
    });
    assert.deepEqual(app.user, {
      id: user.id,
      username: user.username,
      first_name: "Ada",
      last_name: "Lovelace",
    });
    const members = expectStatus(await call(fx.app, "GET", `/members/${app.id}`, { token }), 200);
    assert.equal(members.length, 1);
    assert.equal(members[0].role, "owner");
    assert.equal(members[0].user_id, user.id);
  });

  test("defaults: individual, no fee, no explorer", async () => {
    const { token } = await signup(fx.app);
    const app = expectStatus(await call(fx.app, "POST", "/apps", { token, body: { name: "Minimal" } }), 201);
    assert.equal(app.type, "individual");
    assert.equal(app.app_fee, 0);
    assert.equal(app.use_explorer, false);
    assert.equal(app.kyc_return_url, null);
  });

  test("a developer sees developer permissions", async () => {
    const app = expectStatus(
      await call(fx.app, "GET", `/apps/${fx.tenants.app.id}`, { token: fx.tenants.developer.token }),
      200,
    );
    assert.deepEqual(app.permissions, {
      can_view: true,
      can_edit: true,
      can_delete: false,
      can_edit_members: false,
    });
    assert.equal(app.user.id, fx.tenants.owner.user.id);
  });

  test("list: only the caller's apps, newest first, with paging headers", async () => {
    const { token } = await signup(fx.app);
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createApp(fx.app, token, { name: `App ${i}` }));
    const page1 = await call(fx.app, "GET", "/apps?limit=2", { token });
    assert.deepEqual(
      expectStatus(page1, 200).map((a: { id: string }) => a.id),
      [made[2].id, made[1].id],
    );
    assert.equal(page1.headers["x-total-count"], "3");
    const link = String(page1.headers.link);
    assert.match(link, /<\/apps\?limit=2&page=1>; rel="first"/);
    assert.match(link, /<\/apps\?limit=2&page=2>; rel="next"/);
    assert.match(link, /<\/apps\?limit=2&page=2>; rel="last"/);
    assert.doesNotMatch(link, /rel="prev"/);
    const page2 = expectStatus(await call(fx.app, "GET", "/apps?limit=2&page=2", { token }), 200);
    assert.deepEqual(
      page2.map((a: { id: string }) => a.id),
      [made[0].id],
    );
    const beyond = await call(fx.app, "GET", "/apps?limit=2&page=9", { token });
    assert.deepEqual(expectStatus(beyond, 200), []);
  });

  test("update: owner and developer may edit; bad values are refused and change nothing", async () => {
    const updated = expectStatus(
      await call(fx.app, "PATCH", `/apps/${fx.tenants.app.id}`, {
        token: fx.tenants.developer.token,
        body: { name: "Renamed", app_fee: 10 },
      }),
      200,
    );
    assert.equal(updated.name, "Renamed");
    assert.equal(updated.app_fee, 10);
    for (const [body, path] of [
      [{ app_fee: 100 }, "/body/app_fee"],
      [{ app_fee: -1 }, "/body/app_fee"],
      [{ app_fee: 1.234 }, "/body/app_fee"],
      [{ type: "company" }, "/body/type"],
      [{ kyc_return_url: "javascript:alert(1)" }, "/body/kyc_return_url"],
      [{ name: "" }, "/body/name"],
    ] as const) {
      const problem = assertProblem(
        await call(fx.app, "PATCH", `/apps/${fx.tenants.app.id}`, { token: fx.tenants.owner.token, body }),
        400,
        "validation_failed",
      );
      assert.ok(
        problem.errors.some((e: { path: string }) => e.path === path),
        `${JSON.stringify(body)} names ${path}`,
      );
    }
    const after = expectStatus(
      await call(fx.app, "GET", `/apps/${fx.tenants.app.id}`, { token: fx.tenants.owner.token }),
      200,
    );
    assert.equal(after.name, "Renamed");
    assert.equal(after.app_fee, 10);
  });

  test("a refused create leaves no app behind", async () => {
    const { token } = await signup(fx.app);
    assertProblem(
      await call(fx.app, "POST", "/apps", { token, body: { name: "Bad", app_fee: 0.001 } }),
      400,
      "validation_failed",
    );
    assert.deepEqual(expectStatus(await call(fx.app, "GET", "/apps", { token }), 200), []);
  });

  test("tenancy: another tenant's app is 404 for every verb", async () => {
    for (const [method, body] of [["GET"], ["PATCH", { name: "x" }], ["DELETE"]] as const) {
      const answer = await call(fx.app, method, `/apps/${fx.tenants.otherApp.id}`, {
        token: fx.tenants.owner.token,
        body,
      });
      assertProblem(answer, 404, "not_found");
    }
    assertProblem(
      await call(fx.app, "GET", "/apps/app_doesnotexist", { token: fx.tenants.owner.token }),
      404,
      "not_found",
    );
  });

  test("delete: developer 403, owner 204, then 404", async () => {
    const { token } = await signup(fx.app);
    const app = await createApp(fx.app, token);
    assertProblem(
      await call(fx.app, "DELETE", `/apps/${fx.tenants.app.id}`, { token: fx.tenants.developer.token }),
      403,
      "forbidden",
    );
    expectStatus(await call(fx.app, "DELETE", `/apps/${app.id}`, { token }), 204);
    assertProblem(await call(fx.app, "GET", `/apps/${app.id}`, { token }), 404, "not_found");
  });

  test("an API key acts for its own app only, as a developer, and cannot create apps", async () => {
    const key = expectStatus(
      await call(fx.app, "POST", `/apps/${fx.tenants.app.id}/api-keys`, {
        token: fx.tenants.owner.token,
        body: { name: "server" },
      }),
      201,
    ).key;
    const app = expectStatus(await call(fx.app, "GET", `/apps/${fx.tenants.app.id}`, { token: key }), 200);
    assert.equal(app.permissions.can_delete, false);
    assert.deepEqual(
      expectStatus(await call(fx.app, "GET", "/apps", { token: key }), 200).map((a: { id: string }) => a.id),
      [fx.tenants.app.id],
    );
    assertProblem(
      await call(fx.app, "GET", `/apps/${fx.tenants.otherApp.id}`, { token: key }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "POST", "/apps", { token: key, body: { name: "Nope" } }),
      403,
      "forbidden",
    );
    assertProblem(
      await call(fx.app, "DELETE", `/apps/${fx.tenants.app.id}`, { token: key }),
      403,
      "forbidden",
    );
  });

  test("basics for every route", async () => {
    const token = fx.tenants.owner.token;
    await checkRouteBasics(fx.app, { method: "POST", url: "/apps", token, body: { name: "A" } });
    await checkRouteBasics(fx.app, { method: "GET", url: "/apps", token, list: true });
    await checkRouteBasics(fx.app, { method: "GET", url: `/apps/${fx.tenants.app.id}`, token });
    await checkRouteBasics(fx.app, {
      method: "PATCH",
      url: `/apps/${fx.tenants.app.id}`,
      token,
      body: { name: "A" },
    });
    await checkRouteBasics(fx.app, { method: "DELETE", url: `/apps/${fx.tenants.app.id}`, token });
  });
});
