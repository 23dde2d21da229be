import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { describe, test } from "node:test";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, createApp, expectStatus, signup } from "../helpers/http.ts";

// The last probes that reached a 5xx or were taken leniently (docs/reliability.md, "What each probe
// gets now"): dates past the bounds once their offset is applied, methods no route has, bodies that
// are not UTF-8 or give a key twice, a body that stalls.
let token: string;
let appId: string;
let base: string;

const fx = useTestApp(
  { REQUEST_BODY_TIMEOUT_SECONDS: "1" },
  {
    tenants: false,
    async setUp() {
      token = (await signup(fx.app)).token;
      appId = (await createApp(fx.app, token)).id;
      await fx.app.app.listen({ port: 0, host: "127.0.0.1" });
      base = `127.0.0.1:${(fx.app.app.server.address() as AddressInfo).port}`;
    },
  },
);

const paths = (problem: { errors: { path: string }[] }) => [...new Set(problem.errors.map((e) => e.path))];

/** Writes `text` on a fresh connection and answers what the server sent back before closing it. */
function rawExchange(text: string, timeoutMs = 8000): Promise<{ answer: string; ms: number }> {
  const [host, port] = base.split(":");
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), host, () => socket.write(text));
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
    });
    socket.on("close", () => resolve({ answer, ms: Date.now() - started }));
    socket.on("error", reject);
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      resolve({ answer, ms: Date.now() - started });
    });
  });
}

describe("timestamps are bounded by their UTC instant, at both ends", () => {
  for (const date of ["9999-12-31T20:00:00-05:00", "1970-01-01T00:00:00+01:00"]) {
    test(`a price's expires_at ${date} is 400`, async () => {
      const body = { name: "A", amount: 1, currency: "usd", expires_at: date };
      const problem = assertProblem(
        await call(fx.app, "POST", `/prices/${appId}`, { token, body }),
        400,
        "validation_failed",
      );
      assert.deepEqual(paths(problem), ["/body/expires_at"]);
    });
  }

  test("an auction's ends_at past year 9999 in UTC is 400", async () => {
    const body = {
      name: "Print",
      amount: 10,
      currency: "usd",
      ends_at: "9999-12-31T23:00:00-05:00",
      min_increment: 1,
    };
    const problem = assertProblem(
      await call(fx.app, "POST", `/auctions/${appId}`, { token, body }),
      400,
      "validation_failed",
    );
    assert.deepEqual(paths(problem), ["/body/ends_at"]);
  });

  test("the bounds themselves are taken", async () => {
    for (const date of ["9999-12-31T23:59:59Z", "9999-12-31T20:00:00+05:00"]) {
      const body = { name: "A", amount: 1, currency: "usd", expires_at: date };
      expectStatus(await call(fx.app, "POST", `/prices/${appId}`, { token, body }), 201);
    }
  });
});

describe("a method no route has on a path that exists is 405 with Allow", () => {
  for (const method of ["TRACE", "PUT", "PROPFIND", "OPTIONS"]) {
    test(`${method} /apps`, async () => {
      const answer = await call(fx.app, method, "/apps", { token });
      assertProblem(answer, 405, "method_not_allowed");
      assert.equal(answer.headers.allow, "GET, HEAD, POST");
    });
  }

  test("on a path with parameters, and a path that does not exist is still 404", async () => {
    const answer = await call(fx.app, "PUT", `/payments/${appId}/pay_x`, { token });
    assertProblem(answer, 405, "method_not_allowed");
    assert.equal(answer.headers.allow, "GET, HEAD");
    assertProblem(await call(fx.app, "TRACE", "/no-such-thing", { token }), 404, "not_found");
  });

  test("a method HTTP parsers do not know at all", async () => {
    const { answer } = await rawExchange("FOO /apps HTTP/1.1\r\nHost: x\r\n\r\n");
    assert.match(answer, /^HTTP\/1\.1 405 /);
    assert.match(answer, /\r\nAllow: GET, HEAD, POST\r\n/i);
    assert.match(answer, /"code":"method_not_allowed"/);
  });
});

describe("JSON bodies: UTF-8 only, each key once", () => {
  test("bytes that are not UTF-8 are 400, not stored as U+FFFD", async () => {
    const payload = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    const answer = await fx.app.app.inject({
      method: "POST",
      url: "/apps",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      payload,
    });
    const problem = JSON.parse(answer.body);
    assert.equal(answer.statusCode, 400);
    assert.deepEqual(paths(problem), ["/body"]);
    assert.match(problem.detail, /UTF-8/);
  });

  test("a key given twice is 400 naming it, nested ones too", async () => {
    for (const [raw, path] of [
      ['{"name":"A","name":"B","app_fee":0}', "/body/name"],
      ['{"name":"A","\\u006eame":"B"}', "/body/name"],
      ['{"name":"A","metadata":{"k":[{"x":1},{"x":1,"x":2}]}}', "/body/metadata/k/1/x"],
    ]) {
      const problem = assertProblem(
        await call(fx.app, "POST", "/apps", { token, raw }),
        400,
        "validation_failed",
      );
      assert.deepEqual(paths(problem), [path], raw);
    }
    // The same key in two different objects is fine.
    const raw = '{"name":"Twice","amount":1,"currency":"usd","metadata":{"a":{"name":1},"b":{"name":2}}}';
    expectStatus(await call(fx.app, "POST", `/prices/${appId}`, { token, raw }), 201);
  });
});

describe("a stalled body gets 408 within REQUEST_BODY_TIMEOUT_SECONDS", () => {
  test("a body shorter than its Content-Length", async () => {
    const { answer, ms } = await rawExchange(
      `POST /apps HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":',
    );
    assert.match(answer, /^HTTP\/1\.1 408 /);
    assert.match(answer, /"code":"request_timeout"/);
    assert.ok(ms < 5000, `answered after ${ms} ms`);
  });
});
