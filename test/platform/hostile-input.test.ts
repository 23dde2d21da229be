import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, test } from "node:test";
import { appForTest, useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, createApp, expectStatus, signup } from "../helpers/http.ts";
import { createPrice } from "../helpers/prices.ts";

// Each probe an attacker sent, and what it gets now (docs/reliability.md lists them).
let token: string;
let appId: string;
const METRICS_TOKEN = "metrics-token-0123456789abcdef";

const fx = useTestApp(
  { METRICS_TOKEN, MAX_PAYMENT_AMOUNT: "1000" },
  {
    tenants: false,
    async setUp() {
      token = (await signup(fx.app)).token;
      appId = (await createApp(fx.app, token)).id;
    },
  },
);

const paths = (problem: { errors: { path: string }[] }) => problem.errors.map((e) => e.path);
const nested = (levels: number) => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};

describe("strings never carry U+0000 or a lone surrogate", () => {
  test("in a path parameter", async () => {
    const problem = assertProblem(
      await call(fx.app, "GET", "/wallets/%00", { token }),
      400,
      "validation_failed",
    );
    assert.deepEqual(paths(problem), ["/path/app_id"]);
  });

  test("in a query parameter", async () => {
    const answer = await call(fx.app, "GET", `/payments/${appId}?price_id=a%00b`, { token });
    assert.deepEqual(paths(assertProblem(answer, 400, "validation_failed")), ["/query/price_id"]);
  });

  for (const [what, url, body, path] of [
    [
      "a price name",
      () => `/prices/${appId}`,
      { name: "a\u0000b", amount: 1, currency: "usd" },
      "/body/name",
    ],
    ["a KYC identifier", () => `/apps/${appId}/kycs`, { identifier: "seller\u0000" }, "/body/identifier"],
    [
      "a metadata key",
      () => `/prices/${appId}`,
      { name: "A", amount: 1, currency: "usd", metadata: { "k\u0000": 1 } },
      "/body/metadata/k\u0000",
    ],
    ["a wallet name", () => `/wallets/${appId}`, { name: "w\u0000", type: "evm" }, "/body/name"],
    [
      "a webhook URL",
      () => `/webhooks/${appId}`,
      { url: "https://93.184.216.34/\u0000", events: ["payment.*"] },
      "/body/url",
    ],
    [
      "a lone surrogate",
      () => `/prices/${appId}`,
      { name: "a\ud800", amount: 1, currency: "usd" },
      "/body/name",
    ],
  ] as const) {
    test(`in ${what}`, async () => {
      const problem = assertProblem(
        await call(fx.app, "POST", url(), { token, body }),
        400,
        "validation_failed",
      );
      assert.deepEqual(paths(problem), [path]);
    });
  }

  test("nothing was stored", async () => {
    assert.deepEqual(expectStatus(await call(fx.app, "GET", `/prices/${appId}`, { token }), 200), []);
    assert.deepEqual(expectStatus(await call(fx.app, "GET", `/wallets/${appId}`, { token }), 200), []);
  });
});

describe("free-form values and bodies have a depth and a size", () => {
  const price = (metadata: unknown) => ({ name: "A", amount: 1, currency: "usd", metadata });

  test("metadata nested 5,000 levels deep is refused before it is parsed", async () => {
    const raw = `{"name":"A","amount":1,"currency":"usd","metadata":${'{"a":'.repeat(5000)}1${"}".repeat(5000)}}`;
    const problem = assertProblem(
      await call(fx.app, "POST", `/prices/${appId}`, { token, raw }),
      400,
      "validation_failed",
    );
    assert.deepEqual(paths(problem), ["/body"]);
    assert.match(problem.detail, /32 levels/);
  });

  test("metadata deeper than 10 levels, or over 32 KiB, is refused naming the field", async () => {
    const deep = await call(fx.app, "POST", `/prices/${appId}`, { token, body: price(nested(11)) });
    assert.deepEqual(paths(assertProblem(deep, 400, "validation_failed")), ["/body/metadata"]);
    const big = await call(fx.app, "POST", `/prices/${appId}`, {
      token,
      body: price({ a: "x".repeat(33 * 1024) }),
    });
    assert.deepEqual(paths(assertProblem(big, 400, "validation_failed")), ["/body/metadata"]);
    expectStatus(await call(fx.app, "POST", `/prices/${appId}`, { token, body: price(nested(9)) }), 201);
  });

  test("a __proto__ key is refused", async () => {
    const raw = '{"name":"A","amount":1,"currency":"usd","metadata":{"__proto__":{"x":1}}}';
    const problem = assertProblem(
      await call(fx.app, "POST", `/prices/${appId}`, { token, raw }),
      400,
      "validation_failed",
    );
    assert.deepEqual(paths(problem), ["/body/metadata/__proto__"]);
  });
});

describe("numbers, pages and dates have ranges", () => {
  test("a page past 1,000,000 is refused", async () => {
    const answer = await call(fx.app, "GET", `/apps?page=100000000000000000000`, { token });
    assert.deepEqual(paths(assertProblem(answer, 400, "validation_failed")), ["/query/page"]);
  });

  for (const literal of [
    "9007199254740993",
    "0.30000000000000004",
    "1e400",
    "123456789012345678901234567.89",
  ]) {
    test(`the JSON number ${literal} is refused, not rounded`, async () => {
      const raw = `{"name":"A","amount":${literal},"currency":"usd"}`;
      const problem = assertProblem(
        await call(fx.app, "POST", `/prices/${appId}`, { token, raw }),
        400,
        "validation_failed",
      );
      assert.deepEqual(paths(problem), ["/body/amount"]);
      assert.match(problem.errors[0].message, /cannot be held exactly/);
    });
  }

  for (const date of [
    "0000-01-01T00:00:00Z",
    "1969-12-31T23:59:59Z",
    "10000-01-01T00:00:00Z",
    "2024-12-31T23:59:60Z",
  ]) {
    test(`expires_at ${date} is refused`, async () => {
      const body = { name: "A", amount: 1, currency: "usd", expires_at: date };
      const problem = assertProblem(
        await call(fx.app, "POST", `/prices/${appId}`, { token, body }),
        400,
        "validation_failed",
      );
      // The field is nullable: the null branch's complaint is listed too.
      assert.deepEqual([...new Set(paths(problem))], ["/body/expires_at"]);
      assert.ok(problem.errors.some((e: { message: string }) => /years 1970 to 9999/.test(e.message)));
    });
  }
});

describe("a payment has a ceiling (MAX_PAYMENT_AMOUNT)", () => {
  test("the hosted checkout refuses a dynamic amount above it, and takes one below", async () => {
    const price = await createPrice(fx.app, token, appId, { type: "dynamic", amount: 10 });
    for (const amount of ["123456789012345678901234567.89", "990", 2000]) {
      const answer = await call(fx.app, "POST", `/checkout/${price.id}/payments`, {
        body: { email: "shopper@example.com", payment_provider: "card", amount },
      });
      const problem = assertProblem(answer, 400, "validation_failed");
      assert.deepEqual(paths(problem), ["/body/amount"]);
      assert.match(problem.detail, /maximum of 1000 usd per payment/);
    }
    const fine = await call(fx.app, "POST", `/checkout/${price.id}/payments`, {
      body: { email: "shopper@example.com", payment_provider: "card", amount: "900" },
    });
    expectStatus(fine, 201);
  });

  test("a fixed price above it cannot be paid", async () => {
    const price = await createPrice(fx.app, token, appId, { amount: 5000 });
    const answer = await call(fx.app, "POST", `/payments/${appId}`, {
      token,
      body: { price_id: price.id, payment_provider: "card" },
    });
    assert.deepEqual(paths(assertProblem(answer, 400, "validation_failed")), ["/body/price_id"]);
  });
});

describe("the framework's own refusals are problems", () => {
  test("a URL that does not decode", async () => {
    const problem = assertProblem(
      await call(fx.app, "GET", "/apps/%ff", { token }),
      400,
      "validation_failed",
    );
    assert.deepEqual(paths(problem), ["/path"]);
  });

  test("an over-long path parameter is 414", async () => {
    assertProblem(await call(fx.app, "GET", `/apps/${"a".repeat(300)}`, { token }), 414, "uri_too_long");
  });

  test("JSON sent as text/plain is 415", async () => {
    const answer = await call(fx.app, "POST", "/apps", {
      token,
      raw: '{"name":"A"}',
      headers: { "content-type": "text/plain" },
    });
    assertProblem(answer, 415, "unsupported_media_type");
  });

  test("an empty JSON body names the body", async () => {
    const answer = await call(fx.app, "POST", "/apps", { token, raw: "" });
    assert.deepEqual(paths(assertProblem(answer, 400, "validation_failed")), ["/body"]);
  });

  test("a 100 KB URL is 431 on the wire, as a problem", async () => {
    await fx.app.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = fx.app.app.server.address() as AddressInfo;
    const answer = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port, path: `/apps/${"a".repeat(100_000)}` }, (res) => {
        let body = "";
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"]), body }),
        );
      });
      req.on("error", reject);
      req.end();
    });
    assert.equal(answer.status, 431);
    assert.equal(answer.type, "application/problem+json");
    const problem = JSON.parse(answer.body);
    assert.equal(problem.code, "header_too_large");
    assert.match(problem.request_id, /^req_/);
    assert.doesNotMatch(answer.body, /aaaa/, "the URL is not echoed");
  });

  test("the KYC widget documents its HTML error pages", async () => {
    const doc = expectStatus(await call(fx.app, "GET", "/openapi.json"), 200);
    const errors = doc.paths["/kyc/{edit_token}/details"].post.responses["4XX"].content;
    assert.ok(errors["text/html"], "HTML error pages are documented");
    assert.ok(doc.paths["/apps"].post.responses["4XX"].content["application/problem+json"]);
  });
});

describe("small doors", () => {
  test("/docs cannot be framed and carries a CSP", async () => {
    for (const url of ["/docs/", "/docs/static/swagger-initializer.js"]) {
      const answer = await call(fx.app, "GET", url);
      assert.equal(answer.status, 200, url);
      assert.match(String(answer.headers["content-security-policy"]), /frame-ancestors 'none'/);
      assert.match(String(answer.headers["content-security-policy"]), /script-src 'self'/);
      assert.equal(answer.headers["x-frame-options"], "DENY");
      assert.equal(answer.headers["x-content-type-options"], "nosniff");
    }
  });

  test("/metrics answers only to the metrics token", async () => {
    assertProblem(await call(fx.app, "GET", "/metrics"), 401, "unauthenticated");
    assertProblem(await call(fx.app, "GET", "/metrics", { token: "wrong" }), 401, "unauthenticated");
    assertProblem(await call(fx.app, "GET", "/metrics", { token }), 401, "unauthenticated");
    const answer = await call(fx.app, "GET", "/metrics", { token: METRICS_TOKEN });
    assert.equal(answer.status, 200);
    assert.match(answer.text, /http_requests_total/);
  });

  test("/metrics is not served without METRICS_TOKEN", async (t) => {
    const bare = await appForTest(t);
    assertProblem(await call(bare, "GET", "/metrics"), 404, "not_found");
  });

  test("HTTP Basic takes the API key with an empty password only", async () => {
    const key = expectStatus(
      await call(fx.app, "POST", `/apps/${appId}/api-keys`, { token, body: { name: "basic" } }),
      201,
    ).key;
    const basic = (userPass: string) => ({
      authorization: `Basic ${Buffer.from(userPass).toString("base64")}`,
    });
    expectStatus(await call(fx.app, "GET", `/apps/${appId}`, { headers: basic(`${key}:`) }), 200);
    expectStatus(await call(fx.app, "GET", `/apps/${appId}`, { headers: basic(key) }), 200);
    const refused = await call(fx.app, "GET", `/apps/${appId}`, { headers: basic(`${key}:any-password`) });
    assert.match(assertProblem(refused, 401, "unauthenticated").detail, /empty password/);
  });
});
