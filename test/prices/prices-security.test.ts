import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkRouteBasics } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { apiKeyOf, createPrice } from "../helpers/prices.ts";

let price: { id: string };
let otherPrice: { id: string };
let key: string;

const fx = useTestApp(
  {},
  {
    async setUp() {
      price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
      otherPrice = await createPrice(fx.app, fx.tenants.outsider.token, fx.tenants.otherApp.id);
      key = await apiKeyOf(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
    },
  },
);

const validBody = { name: "x", amount: 1, currency: "usd" };

function routes() {
  return [
    { method: "POST", url: `/prices/${fx.tenants.app.id}`, body: validBody },
    { method: "GET", url: `/prices/${fx.tenants.app.id}` },
    { method: "GET", url: `/prices/${fx.tenants.app.id}/${price.id}` },
    { method: "PATCH", url: `/prices/${fx.tenants.app.id}/${price.id}`, body: { name: "y" } },
    { method: "DELETE", url: `/prices/${fx.tenants.app.id}/${price.id}` },
  ];
}

describe("credentials", () => {
  test("every route passes the project's route contract (401s, malformed bodies, paging)", async () => {
    for (const route of routes()) {
      await checkRouteBasics(fx.app, {
        ...route,
        token: fx.tenants.owner.token,
        list: route.method === "GET" && !route.url.includes(price.id),
      });
    }
    await checkRouteBasics(fx.app, {
      method: "GET",
      url: `/prices/${fx.tenants.app.id}/${price.id}/price-item`,
      token: fx.tenants.owner.token,
    });
  });

  test("every route but the public page answers 401 without a credential, or with a bad one", async () => {
    for (const route of routes()) {
      const none = await call(fx.app, route.method, route.url, { body: route.body });
      assertProblem(none, 401, "unauthenticated");
      assert.ok(none.headers["www-authenticate"], `${route.method} ${route.url}`);
      const bad = await call(fx.app, route.method, route.url, { body: route.body, token: "sk_test_nope" });
      assertProblem(bad, 401, "unauthenticated");
    }
    expectStatus(
      await call(fx.app, "GET", `/prices/${fx.tenants.app.id}/${price.id}`, {
        token: fx.tenants.owner.token,
      }),
      200,
    );
  });

  test("an app API key works as Bearer and as HTTP Basic, for its own app only", async () => {
    const basic = `Basic ${Buffer.from(`${key}:`).toString("base64")}`;
    expectStatus(await call(fx.app, "GET", `/prices/${fx.tenants.app.id}/${price.id}`, { token: key }), 200);
    expectStatus(
      await call(fx.app, "GET", `/prices/${fx.tenants.app.id}/${price.id}`, {
        headers: { authorization: basic },
      }),
      200,
    );
    const created = await call(fx.app, "POST", `/prices/${fx.tenants.app.id}`, {
      headers: { authorization: basic },
      body: validBody,
    });
    expectStatus(created, 201);
    assertProblem(
      await call(fx.app, "GET", `/prices/${fx.tenants.otherApp.id}`, { token: key }),
      404,
      "not_found",
    );
  });
});

describe("tenants", () => {
  test("another tenant's app is 404 on every route", async () => {
    for (const route of routes()) {
      const answer = await call(fx.app, route.method, route.url, {
        token: fx.tenants.outsider.token,
        body: route.body,
      });
      assertProblem(answer, 404, "not_found");
    }
  });

  test("another tenant's price through one's own app is 404, and stays untouched", async () => {
    for (const method of ["GET", "PATCH", "DELETE"]) {
      const answer = await call(fx.app, method, `/prices/${fx.tenants.app.id}/${otherPrice.id}`, {
        token: fx.tenants.owner.token,
        body: method === "PATCH" ? { name: "stolen" } : undefined,
      });
      assertProblem(answer, 404, "not_found");
    }
    const still = await call(fx.app, "GET", `/prices/${fx.tenants.otherApp.id}/${otherPrice.id}`, {
      token: fx.tenants.outsider.token,
    });
    assert.equal(expectStatus(still, 200).name, "Concert ticket");
  });

  test("lists hold only the app's own prices", async () => {
    const mine = expectStatus(
      await call(fx.app, "GET", `/prices/${fx.tenants.app.id}?limit=100`, { token: fx.tenants.owner.token }),
      200,
    );
    assert.ok(mine.every((p: { id: string }) => p.id !== otherPrice.id));
    assert.ok(mine.some((p: { id: string }) => p.id === price.id));
  });
});

describe("malformed requests", () => {
  test("list parameters out of range are 400 naming the parameter", async () => {
    for (const query of ["page=0", "limit=0", "limit=101", "page=abc", "limit=1.5", "sort=name"]) {
      const answer = await call(fx.app, "GET", `/prices/${fx.tenants.app.id}?${query}`, {
        token: fx.tenants.owner.token,
      });
      const problem = assertProblem(answer, 400, "validation_failed");
      assert.match(problem.errors[0].path, /^\/query\//, query);
    }
  });

  test("malformed JSON, unknown fields and wrong types are 400 on POST and PATCH", async () => {
    for (const [method, url] of [
      ["POST", `/prices/${fx.tenants.app.id}`],
      ["PATCH", `/prices/${fx.tenants.app.id}/${price.id}`],
    ]) {
      assertProblem(
        await call(fx.app, method, url, { token: fx.tenants.owner.token, raw: "{not json" }),
        400,
        "validation_failed",
      );
      const unknown = await call(fx.app, method, url, {
        token: fx.tenants.owner.token,
        body: { ...validBody, app_id: "x" },
      });
      assert.equal(assertProblem(unknown, 400, "validation_failed").errors[0].path, "/body/app_id");
      const wrongType = await call(fx.app, method, url, {
        token: fx.tenants.owner.token,
        body: { ...validBody, metadata: [] },
      });
      assert.ok(
        assertProblem(wrongType, 400, "validation_failed").errors.some(
          (e: { path: string }) => e.path === "/body/metadata",
        ),
      );
      const excess = await call(fx.app, method, url, {
        token: fx.tenants.owner.token,
        body: { ...validBody, amount: 1.001 },
      });
      assert.equal(assertProblem(excess, 400, "validation_failed").errors[0].path, "/body/amount");
    }
  });

  test("a body over 1 MiB is 413", async () => {
    const answer = await call(fx.app, "POST", `/prices/${fx.tenants.app.id}`, {
      token: fx.tenants.owner.token,
      body: { ...validBody, metadata: { blob: "x".repeat(1024 * 1024) } },
    });
    assertProblem(answer, 413, "payload_too_large");
  });

  test("ids longer than any id are 400, unknown ids 404", async () => {
    const long = "p".repeat(65);
    assertProblem(
      await call(fx.app, "GET", `/prices/${fx.tenants.app.id}/${long}`, { token: fx.tenants.owner.token }),
      400,
      "validation_failed",
    );
    assertProblem(
      await call(fx.app, "GET", `/prices/${fx.tenants.app.id}/price_nope`, { token: fx.tenants.owner.token }),
      404,
      "not_found",
    );
    assertProblem(await call(fx.app, "GET", `/p/price_nope`), 404, "not_found");
  });
});
