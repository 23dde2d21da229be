import assert from "node:assert/strict";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { freePort } from "../helpers/browser.ts";
import { appForTest } from "../helpers/fixture.ts";
import { call } from "../helpers/http.ts";
import { http, type Running, runService, sharedDatabase, until } from "../helpers/processes.ts";

// These tests run the service as an operator does, `node src/main.ts` in a process of its own, and
// signal it: on the embedded database in a data directory, or on a fresh PostgreSQL database.
const onPostgres = Boolean(process.env.DATABASE_URL);
const run = runService;
const json = http;

/** How many requests to `path` the service's log shows at `event` ("incoming request", …). */
function logged(output: string, event: string, path: string): number {
  return output.split("\n").filter((line) => line.includes(`"${event}"`) && line.includes(`"url":"${path}"`))
    .length;
}

/**
 * A create sent over its own connection with half its body: the service takes it (and logs it)
 * and waits for the rest, which `finish` sends. `answer` is its status code.
 */
function heldCreate(port: number, path: string, token: string, body: string) {
  const request = httpRequest({
    host: "127.0.0.1",
    port,
    method: "POST",
    path,
    agent: false,
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
    },
  });
  // A connection closed before the answer (a drain that drops the request) reads as status 0.
  const answer = new Promise<number>((resolve) => {
    request.on("response", (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    request.on("error", () => resolve(0));
  });
  const half = Math.floor(body.length / 2);
  request.write(body.slice(0, half));
  return { answer, finish: () => request.end(body.slice(half)) };
}

let database: Awaited<ReturnType<typeof sharedDatabase>>;
before(async () => {
  database = await sharedDatabase();
});
after(() => database.drop());

describe("graceful shutdown", () => {
  test("requests in flight at SIGTERM all get their normal answers, and the process exits 0 in time", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = run({ ...database.env, PORT: String(port), SHUTDOWN_TIMEOUT_SECONDS: "15" });
    try {
      await until(
        async () => (await json(base, "GET", "/health/ready")).status === 200,
        "the server to be ready",
      );
      assert.deepEqual((await json(base, "GET", "/health/live")).body, { status: "ok" });
      const signup = await json(base, "POST", "/auth/signup", undefined, {
        email: "drain@example.com",
        password: "correct horse battery staple",
        username: "drainer",
        first_name: "Ada",
        last_name: "Lovelace",
      });
      const token = signup.body.token;
      const app = await json(base, "POST", "/apps", token, {
        name: "Drain",
        app_fee: 0,
        use_explorer: false,
      });
      const price = await json(base, "POST", `/prices/${app.body.id}`, token, {
        name: "Ticket",
        amount: 10,
        currency: "usd",
      });
      assert.equal(price.status, 201);

      // Ten creates the service has taken and is reading when the signal lands: each sends its
      // headers and half its body, and the rest only once the drain has begun. (Creates sent whole
      // are served in a millisecond or two, so none would be sure to be in flight at the signal.)
      const path = `/payments/${app.body.id}`;
      const body = JSON.stringify({ price_id: price.body.id, payment_provider: "card" });
      const creates = Array.from({ length: 10 }, () => heldCreate(port, path, token, body));
      await until(
        () => logged(server.output(), "incoming request", path) === 10,
        "the service to take the ten creates",
      );
      const signalled = Date.now();
      server.child.kill("SIGTERM");
      await until(() => server.output().includes("draining, then shutting down"), "the drain to begin");
      for (const create of creates) create.finish();
      const answers = await Promise.all(creates.map((create) => create.answer));
      assert.deepEqual(answers, Array(10).fill(201), "every create in flight got its normal answer");
      const { code } = await server.exited;
      assert.equal(code, 0, server.output());
      assert.ok(Date.now() - signalled < 15_000, "it exited within SHUTDOWN_TIMEOUT_SECONDS");
      assert.match(server.output(), /draining, then shutting down/);
    } finally {
      server.child.kill("SIGKILL");
    }
  });

  test("a worker-only process serves no API, reports its health on HEALTH_PORT and drains on SIGTERM", async () => {
    const port = await freePort();
    const healthPort = await freePort();
    const worker = run({
      ...database.env,
      RUN_API: "false",
      PORT: String(port),
      HEALTH_PORT: String(healthPort),
    });
    try {
      const health = `http://127.0.0.1:${healthPort}`;
      await until(
        async () => (await json(health, "GET", "/health/ready")).status === 200,
        "the worker to be ready",
      );
      assert.deepEqual((await json(health, "GET", "/health")).body, { status: "ok" });
      assert.equal((await json(health, "GET", "/apps")).status, 404, "no API on the health port");
      await assert.rejects(fetch(`http://127.0.0.1:${port}/health`), "nothing listens on PORT");
      worker.child.kill("SIGTERM");
      assert.equal((await worker.exited).code, 0, worker.output());
    } finally {
      worker.child.kill("SIGKILL");
    }
  });
});

// Its own app: the test shuts it down.
test("once a shutdown begins, /health and /health/ready answer 503 draining while /health/live stays 200", async (t) => {
  const app = await appForTest(t);
  const ready = await call(app, "GET", "/health/ready");
  assert.deepEqual([ready.status, ready.body], [200, { status: "ok" }]);
  const stopping = app.shutdown();
  try {
    for (const url of ["/health", "/health/ready"]) {
      const answer = await call(app, "GET", url);
      assert.deepEqual([answer.status, answer.body], [503, { status: "draining" }], url);
      assert.equal(answer.headers.connection, "close", "keep-alive clients are sent elsewhere");
    }
    assert.equal((await call(app, "GET", "/health/live")).status, 200);
  } finally {
    await stopping;
  }
});

describe("a job cut off by the shutdown timeout", {
  skip: !onPostgres && "needs PostgreSQL: two worker processes share the queue",
}, () => {
  test("is handed back and runs again in another worker exactly once", async () => {
    // A webhook receiver that holds the first delivery past the shutdown timeout and answers the rest.
    const seen: string[] = [];
    const receiver = createServer((request, response) => {
      seen.push(String(request.headers["webhook-id"]));
      const delay = seen.length === 1 ? 8000 : 0;
      setTimeout(() => response.writeHead(200).end("ok"), delay).unref();
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const env = { ...database.env, WEBHOOKS_ALLOW_LOOPBACK: "true" };
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const api = run({ ...env, RUN_WORKER: "false", PORT: String(port) });
    const first = run({ ...env, RUN_API: "false", SHUTDOWN_TIMEOUT_SECONDS: "2" });
    let second: Running | undefined;
    try {
      await until(
        async () => (await json(base, "GET", "/health/ready")).status === 200,
        "the API to be ready",
      );
      const signup = await json(base, "POST", "/auth/signup", undefined, {
        email: "cutoff@example.com",
        password: "correct horse battery staple",
        username: "cutoff",
        first_name: "Ada",
        last_name: "Lovelace",
      });
      const token = signup.body.token;
      const app = await json(base, "POST", "/apps", token, {
        name: "Cut off",
        app_fee: 0,
        use_explorer: false,
      });
      const endpoint = await json(base, "POST", `/webhooks/${app.body.id}`, token, {
        url: hook,
        events: ["*"],
      });
      assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
      const price = await json(base, "POST", `/prices/${app.body.id}`, token, {
        name: "Ticket",
        amount: 10,
        currency: "usd",
      });
      // The payment's `payment.pending` event is delivered by a job in the worker.
      const payment = await json(base, "POST", `/payments/${app.body.id}`, token, {
        price_id: price.body.id,
        payment_provider: "card",
      });
      assert.equal(payment.status, 201, JSON.stringify(payment.body));
      await until(() => seen.length === 1, "the first worker to start the delivery", 30_000);
      const signalled = Date.now();
      first.child.kill("SIGTERM");
      assert.equal((await first.exited).code, 0, first.output());
      assert.ok(Date.now() - signalled < 6000, "the worker stopped after its 2 s timeout, not after the job");
      second = run({ ...env, RUN_API: "false" });
      await until(() => seen.length >= 2, "the delivery to run again in the other worker", 60_000);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      assert.equal(seen.length, 2, "run once more, not more");
      assert.equal(seen[0], seen[1], "the same delivery (same webhook-id)");
    } finally {
      for (const p of [api, first, second]) p?.child.kill("SIGKILL");
      receiver.closeAllConnections();
      receiver.close();
    }
  });
});
