import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { loadConfig } from "../../src/config.ts";
import { createServer } from "../../src/platform/http/server.ts";
import { createLogger } from "../../src/platform/log.ts";
import { LIVE_MODE_SETTINGS } from "../helpers/app.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, createApp, signup } from "../helpers/http.ts";

const METRICS_TOKEN = "metrics-token-0123456789abcdef";
const fx = useTestApp({ METRICS_TOKEN }, { tenants: false });

describe("errors are RFC 9457 problems", () => {
  test("an unknown route is a 404 problem with a request id", async () => {
    const answer = await call(fx.app, "GET", "/nowhere");
    assertProblem(answer, 404, "not_found");
    assert.match(answer.body.type, /^urn:problem:not_found$/);
  });

  test("a client's x-request-id is echoed; a hostile one is replaced", async () => {
    const mine = await call(fx.app, "GET", "/health", { headers: { "x-request-id": "client-abc.123" } });
    assert.equal(mine.headers["x-request-id"], "client-abc.123");
    const hostile = await call(fx.app, "GET", "/health", { headers: { "x-request-id": "a b\u0000c" } });
    assert.match(String(hostile.headers["x-request-id"]), /^req_/);
  });

  test("malformed JSON is 400 and names the body", async () => {
    const answer = await call(fx.app, "POST", "/auth/signup", { raw: "{not json" });
    const problem = assertProblem(answer, 400, "validation_failed");
    assert.equal(problem.errors[0].path, "/body");
  });

  test("a body over 1 MiB is 413", async () => {
    const user = await signup(fx.app);
    const big = JSON.stringify({ name: "x".repeat(1024 * 1024 + 10) });
    const answer = await call(fx.app, "POST", "/apps", { token: user.token, raw: big });
    assertProblem(answer, 413, "payload_too_large");
  });

  test("wrong types are not coerced in bodies", async () => {
    const user = await signup(fx.app);
    const answer = await call(fx.app, "POST", "/apps", {
      token: user.token,
      body: { name: "A", app_fee: "5" },
    });
    const problem = assertProblem(answer, 400, "validation_failed");
    assert.deepEqual(
      problem.errors.map((e: { path: string }) => e.path),
      ["/body/app_fee"],
    );
  });

  test("every missing required field is named", async () => {
    const answer = await call(fx.app, "POST", "/auth/signup", { body: {} });
    const problem = assertProblem(answer, 400, "validation_failed");
    const paths = problem.errors.map((e: { path: string }) => e.path).sort();
    assert.deepEqual(paths, [
      "/body/email",
      "/body/first_name",
      "/body/last_name",
      "/body/password",
      "/body/username",
    ]);
  });

  test("a 500 never leaks internals", async () => {
    const { app } = await createServer({
      logger: createLogger("silent"),
      authenticate: async () => undefined,
      publicUrl: "http://localhost",
      version: "test",
    });
    app.get("/boom", { config: { public: true } }, async () => {
      throw new Error("secret database detail");
    });
    const answer = await app.inject({ method: "GET", url: "/boom" });
    assert.equal(answer.statusCode, 500);
    const body = answer.json();
    assert.equal(body.code, "internal");
    assert.doesNotMatch(answer.body, /secret database detail/);
    await app.close();
  });
});

describe("system endpoints", () => {
  test("health, metrics, openapi and docs", async () => {
    assert.deepEqual((await call(fx.app, "GET", "/health")).body, { status: "ok" });
    const user = await signup(fx.app);
    await createApp(fx.app, user.token);
    const metrics = await call(fx.app, "GET", "/metrics", { token: METRICS_TOKEN });
    assert.equal(metrics.status, 200);
    assert.match(metrics.text, /http_requests_total\{method="POST",route="\/apps",status="201"\} \d+/);
    assert.match(
      metrics.text,
      /http_request_duration_seconds_bucket\{method="POST",route="\/apps",status="201",le="0.1"\}/,
    );
    const docs = await call(fx.app, "GET", "/docs");
    assert.ok([200, 302].includes(docs.status), `docs answered ${docs.status}`);
  });

  test("the OpenAPI document lists every registered route with its error answers", async () => {
    const answer = await call(fx.app, "GET", "/openapi.json");
    assert.equal(answer.status, 200);
    const doc = answer.body;
    assert.equal(doc.openapi, "3.1.0");
    const expected: string[] = [];
    for (const route of fx.app.routes) {
      if (route.hidden) continue;
      // Compared by shape: the document may name a path parameter as the interface does (docs/openapi.md).
      expected.push(`${route.method} ${route.url.replace(/:(\w+)/g, "{}")}`);
    }
    const documented = new Set<string>();
    for (const [path, operations] of Object.entries<Record<string, unknown>>(doc.paths)) {
      const shape = path.replace(/\{\w+\}/g, "{}");
      for (const method of Object.keys(operations)) documented.add(`${method.toUpperCase()} ${shape}`);
    }
    for (const route of expected) assert.ok(documented.has(route), `${route} is in the OpenAPI document`);
    const createApp = doc.paths["/apps"].post;
    assert.ok(createApp.responses["201"], "success answer documented");
    assert.ok(createApp.responses["4XX"], "error answers documented");
    assert.ok(createApp.requestBody, "request body documented");
  });
});

describe("configuration", () => {
  test("a bad setting stops start-up with a message naming it", () => {
    assert.throws(() => loadConfig({ PORT: "eighty" }), /PORT/);
    assert.throws(() => loadConfig({ DATABASE_URL: "mysql://x" }), /DATABASE_URL/);
    assert.throws(() => loadConfig({ SANDBOX: "maybe" }), /SANDBOX/);
    assert.throws(() => loadConfig({ LOG_LEVEL: "loud" }), /LOG_LEVEL/);
    assert.equal(loadConfig({}).sandbox, true, "the embedded database defaults to sandbox mode");
    assert.equal(loadConfig({ DATABASE_URL: "postgres://x/y" }).sandbox, true, "live mode must be asked for");
    assert.equal(loadConfig({ ...LIVE_MODE_SETTINGS }).sandbox, false);
  });
});
