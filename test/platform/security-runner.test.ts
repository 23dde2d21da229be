// Every route that needs a credential, taken from the app's own route list (so a new route is
// covered the day it is added): no credential and a revoked key are 401; a caller of another app
// never learns whether a record exists (404, or 400 for a body refused before any lookup); a
// developer cannot do what only owners may (403).
import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";

let revokedKey: string;

const fx = useTestApp(
  {},
  {
    async setUp() {
      const created = expectStatus(
        await call(fx.app, "POST", `/apps/${fx.tenants.app.id}/api-keys`, {
          token: fx.tenants.owner.token,
          body: { name: "Revoked" },
        }),
        201,
      );
      expectStatus(
        await call(fx.app, "DELETE", `/apps/${fx.tenants.app.id}/api-keys/${created.id}`, {
          token: fx.tenants.owner.token,
        }),
        204,
      );
      revokedKey = created.key;
    },
  },
);

/** The route's URL with `app_id` (and the interface's auction `id`) set to `appId`, other ids made up. */
function urlOf(url: string, appId: string) {
  return url
    .replace(/:app_id\b/g, appId)
    .replace(/:(\w+)/g, (_, name: string) =>
      name === "id" && url.startsWith("/auctions/") ? appId : `${name}_x1`,
    );
}

const guarded = () => fx.app.routes.filter((r) => !r.public && !r.hidden);
const withBody = (method: string) => (method === "POST" || method === "PATCH" ? {} : undefined);

test("the route list covers the API", () => {
  assert.ok(guarded().length > 50, `${guarded().length} guarded routes`);
});

test("no credential, or a revoked API key: 401 on every guarded route", async () => {
  for (const route of guarded()) {
    const url = urlOf(route.url, fx.tenants.app.id);
    for (const token of [undefined, revokedKey]) {
      const answer = await call(fx.app, route.method, url, { token, body: withBody(route.method) });
      assert.equal(answer.status, 401, `${route.method} ${route.url} (${token ? "revoked key" : "none"})`);
    }
  }
});

test("another app's owner: 404 on every route of this app (400 only for a body refused first)", async () => {
  const scoped = guarded().filter((r) => r.url.includes(":app_id") || r.url.startsWith("/auctions/:id"));
  assert.ok(scoped.length > 40, `${scoped.length} app-scoped routes`);
  for (const route of scoped) {
    const answer = await call(fx.app, route.method, urlOf(route.url, fx.tenants.app.id), {
      token: fx.tenants.outsider.token,
      body: withBody(route.method),
    });
    const allowed = route.method === "GET" || route.method === "DELETE" ? [404] : [400, 404];
    assert.ok(
      allowed.includes(answer.status),
      `${route.method} ${route.url}: ${answer.status} ${JSON.stringify(answer.body)}`,
    );
  }
});

test("a developer is refused what only owners may do: 403", async () => {
  const ownerOnly: [string, string, unknown?][] = [
    ["DELETE", `/apps/${fx.tenants.app.id}`],
    ["POST", `/members/${fx.tenants.app.id}`, { email: "new@example.com", role: "developer" }],
    ["PATCH", `/members/${fx.tenants.app.id}/${fx.tenants.developerMemberId}`, { role: "owner" }],
    ["DELETE", `/members/${fx.tenants.app.id}/${fx.tenants.developerMemberId}`],
  ];
  for (const [method, url, body] of ownerOnly) {
    const answer = await call(fx.app, method, url, { token: fx.tenants.developer.token, body });
    assert.equal(answer.status, 403, `${method} ${url}: ${JSON.stringify(answer.body)}`);
  }
});
