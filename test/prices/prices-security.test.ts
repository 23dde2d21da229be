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
      price = await createPrice(fx.t, fx.f.owner.token, fx.f.app.id);
      otherPrice = await createPrice(fx.t, fx.f.outsider.token, fx.f.otherApp.id);
      key = await apiKeyOf(fx.t, fx.f.owner.token, fx.f.app.id);
    },
  },
);

const validBody = { name: "x", amount: 1, currency: "usd" };

function routes() {
  return [
    { method: "POST", url: `/prices/${fx.f.app.id}`, body: validBody },
    { method: "GET", url: `/prices/${fx.f.app.id}` },
    { method: "GET", url: `/prices/${fx.f.app.id}/${price.id}` },
    { method: "PATCH", url: `/prices/${fx.f.app.id}/${price.id}`, body: { name: "y" } },
    { method: "DELETE", url: `/prices/${fx.f.app.id}/${price.id}` },
  ];
}

describe("credentials", () => {
  test("every route passes the project's route contract (401s, malformed bodies, paging)", async () => {
    for (const route of routes()) {
      await checkRouteBasics(fx.t, {
        ...route,
        token: fx.f.owner.token,
        list: route.method === "GET" && !route.url.includes(price.id),
      });
    }
    await checkRouteBasics(fx.t, {
      method: "GET",
      url: `/prices/${fx.f.app.id}/${price.id}/price-item`,
      token: fx.f.owner.token,
    });
  });

  test("every route but the public page answers 401 without a credential, or with a bad one", async () => {
    for (const route of routes()) {
      const none = await call(fx.t, route.method, route.url, { body: route.body });
      assertProblem(none, 401, "unauthenticated");
      assert.ok(none.headers["www-authenticate"], `${route.method} ${route.url}`);
      const bad = await call(fx.t, route.method, route.url, { body: route.body, token: "sk_test_nope" });
      assertProblem(bad, 401, "unauthenticated");
    }
    expectStatus(
      await call(fx.t, "GET", `/prices/${fx.f.app.id}/${price.id}`, { token: fx.f.owner.token }),
      200,
    );
  });

  test("an app API key works as Bearer and as HTTP Basic, for its own app only", async () => {
    const basic = `Basic ${Buffer.from(`${key}:`).toString("base64")}`;
    expectStatus(await call(fx.t, "GET", `/prices/${fx.f.app.id}/${price.id}`, { token: key }), 200);
    expectStatus(
      await call(fx.t, "GET", `/prices/${fx.f.app.id}/${price.id}`, { headers: { authorization: basic } }),
      200,
    );
    const created = await call(fx.t, "POST", `/prices/${fx.f.app.id}`, {
      headers: { authorization: basic },
      body: validBody,
    });
    expectStatus(created, 201);
    assertProblem(await call(fx.t, "GET", `/prices/${fx.f.otherApp.id}`, { token: key }), 404, "not_found");
  });
});

describe("tenants", () => {
  test("another tenant's app is 404 on every route", async () => {
    for (const route of routes()) {
      const answer = await call(fx.t, route.method, route.url, {
        token: fx.f.outsider.token,
        body: route.body,
      });
      assertProblem(answer, 404, "not_found");
    }
  });

  test("another tenant's price through one's own app is 404, and stays untouched", async () => {
    for (const method of ["GET", "PATCH", "DELETE"]) {
      const answer = await call(fx.t, method, `/prices/${fx.f.app.id}/${otherPrice.id}`, {
        token: fx.f.owner.token,
        body: method === "PATCH" ? { name: "stolen" } : undefined,
      });
      assertProblem(answer, 404, "not_found");
    }
    const still = await call(fx.t, "GET", `/prices/${fx.f.otherApp.id}/${otherPrice.id}`, {
      token: fx.f.outsider.token,
    });
    assert.equal(expectStatus(still, 200).name, "Concert ticket");
  });

  test("lists hold only the app's own prices", async () => {
    const mine = expectStatus(
      await call(fx.t, "GET", `/prices/${fx.f.app.id}?limit=100`, { token: fx.f.owner.token }),
      200,
    );
    assert.ok(mine.every((p: { id: string }) => p.id !== otherPrice.id));
    assert.ok(mine.some((p: { id: string }) => p.id === price.id));
  });
});

describe("malformed requests", () => {
  test("list parameters out of range are 400 naming the parameter", async () => {
    for (const query of ["page=0", "limit=0", "limit=101", "page=abc", "limit=1.5", "sort=name"]) {
      const answer = await call(fx.t, "GET", `/prices/${fx.f.app.id}?${query}`, { token: fx.f.owner.token });
      const problem = assertProblem(answer, 400, "validation_failed");
      assert.match(problem.errors[0].path, /^\/query\//, query);
    }
  });

  test("malformed JSON, unknown fields and wrong types are 400 on POST and PATCH", async () => {
    for (const [method, url] of [
      ["POST", `/prices/${fx.f.app.id}`],
      ["PATCH", `/prices/${fx.f.app.id}/${price.id}`],
    ]) {
      assertProblem(
        await call(fx.t, method, url, { token: fx.f.owner.token, raw: "{not json" }),
        400,
        "validation_failed",
      );
      const unknown = await call(fx.t, method, url, {
        token: fx.f.owner.token,
        body: { ...validBody, app_id: "x" },
      });
      assert.equal(assertProblem(unknown, 400, "validation_failed").errors[0].path, "/body/app_id");
      const wrongType = await call(fx.t, method, url, {
        token: fx.f.owner.token,
        body: { ...validBody, metadata: [] },
      });
      assert.ok(
        assertProblem(wrongType, 400, "validation_failed").errors.some(
          (e: { path: string }) => e.path === "/body/metadata",
        ),
      );
      const excess = await call(fx.t, method, url, {
        token: fx.f.owner.token,
        body: { ...validBody, amount: 1.001 },
      });
      assert.equal(assertProblem(excess, 400, "validation_failed").errors[0].path, "/body/amount");
    }
  });

  test("a body over 1 MiB is 413", async () => {
    const answer = await call(fx.t, "POST", `/prices/${fx.f.app.id}`, {
      token: fx.f.owner.token,
      body: { ...validBody, metadata: { blob: "x".repeat(1024 * 1024) } },
    });
    assertProblem(answer, 413, "payload_too_large");
  });

  test("ids longer than any id are 400, unknown ids 404", async () => {
    const long = "p".repeat(65);
    assertProblem(
      await call(fx.t, "GET", `/prices/${fx.f.app.id}/${long}`, { token: fx.f.owner.token }),
      400,
      "validation_failed",
    );
    assertProblem(
      await call(fx.t, "GET", `/prices/${fx.f.app.id}/price_nope`, { token: fx.f.owner.token }),
      404,
      "not_found",
    );
    assertProblem(await call(fx.t, "GET", `/p/price_nope`), 404, "not_found");
  });
});
