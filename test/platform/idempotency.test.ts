import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { onPostgres } from "../helpers/app.ts";
import { startCrashingApi } from "../helpers/crashing-api.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus, signup } from "../helpers/http.ts";

let token: string;
const fx = useTestApp(
  {},
  {
    tenants: false,
    async setUp() {
      token = (await signup(fx.app)).token;
    },
  },
);

const post = (key: string, body: Record<string, unknown>, as = token) =>
  call(fx.app, "POST", "/apps", { token: as, body, headers: { "idempotency-key": key } });

async function appCount(as = token) {
  return Number((await call(fx.app, "GET", "/apps?limit=1", { token: as })).headers["x-total-count"]);
}

describe("Idempotency-Key", () => {
  test("a repeat replays the first answer byte for byte and creates nothing", async () => {
    const before = await appCount();
    const first = await post("order-1", { name: "Once" });
    expectStatus(first, 201);
    const again = await post("order-1", { name: "Once" });
    assert.equal(again.status, 201);
    assert.equal(again.text, first.text);
    assert.equal(again.headers["idempotent-replayed"], "true");
    assert.equal(await appCount(), before + 1);
  });

  test("the same key with another body is 409 idempotency_key_reused", async () => {
    expectStatus(await post("order-2", { name: "A" }), 201);
    assertProblem(await post("order-2", { name: "B" }), 409, "idempotency_key_reused");
  });

  test("keys are scoped to the caller", async () => {
    const other = (await signup(fx.app)).token;
    const mine = expectStatus(await post("shared-key", { name: "Mine" }), 201);
    const theirs = expectStatus(await post("shared-key", { name: "Mine" }, other), 201);
    assert.notEqual(mine.id, theirs.id);
  });

  test("a refused request stores nothing: the corrected request can use the key", async () => {
    assertProblem(await post("order-3", { name: "Bad", app_fee: 1.234 }), 400, "validation_failed");
    expectStatus(await post("order-3", { name: "Good", app_fee: 1.23 }), 201);
  });

  test("the same body with its keys in another order replays: bodies compare as JSON values", async () => {
    const first = expectStatus(
      await post("order-4", { name: "Ordered", app_fee: 2, use_explorer: true }),
      201,
    );
    const again = await post("order-4", { use_explorer: true, app_fee: 2, name: "Ordered" });
    assert.equal(again.status, 201, again.text);
    assert.equal(again.headers["idempotent-replayed"], "true");
    assert.equal(again.body.id, first.id);
    assertProblem(
      await post("order-4", { use_explorer: true, app_fee: 3, name: "Ordered" }),
      409,
      "idempotency_key_reused",
    );
  });

  test("a malformed key is 400 naming the header", async () => {
    const problem = assertProblem(await post("x".repeat(256), { name: "A" }), 400, "validation_failed");
    assert.equal(problem.errors[0].path, "/header/idempotency-key");
  });

  test("concurrent repeats create one record and all answer the same", {
    skip: !onPostgres && "needs PostgreSQL for real concurrency",
  }, async () => {
    const before = await appCount();
    const answers = await Promise.all(Array.from({ length: 40 }, () => post("burst", { name: "Burst" })));
    const ok = answers.filter((a) => a.status === 201);
    assert.ok(ok.length > 0);
    for (const a of answers)
      assert.ok(a.status === 201 || (a.status === 409 && a.body.code === "conflict"), a.text);
    assert.equal(new Set(ok.map((a) => a.text)).size, 1, "every successful answer is the same");
    assert.equal(await appCount(), before + 1);
  });
});

const crashingApi = (point: string) => startCrashingApi(fx.app.connectionString!, point);

describe("Idempotency-Key after a crash", {
  skip: !onPostgres && "needs PostgreSQL: the crashing API process shares the database",
}, () => {
  test("a key whose request died with its process is free again within seconds", async () => {
    const api = await crashingApi("idempotency-claimed");
    try {
      const before = await appCount();
      // The request claims its key, then its process is killed before it does anything else.
      const died = await fetch(`${api.base}/apps`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "idempotency-key": "crashed",
        },
        body: JSON.stringify({ name: "After a crash" }),
      }).catch((error: Error) => error);
      assert.ok(died instanceof Error, "the connection dies with the process");
      assert.equal(await api.exited, "SIGKILL");
      // The retry (another process) waits at most a few seconds for the dead claim, then runs once.
      const started = Date.now();
      const retried = await post("crashed", { name: "After a crash" });
      assert.equal(retried.status, 201, retried.text);
      assert.ok(Date.now() - started < 10_000, "the key was free within seconds");
      assert.equal(await appCount(), before + 1);
      const replayed = await post("crashed", { name: "After a crash" });
      assert.equal(replayed.headers["idempotent-replayed"], "true");
      assert.equal(replayed.text, retried.text);
    } finally {
      api.stop();
    }
  });

  test("a payment create whose process died after its write, before its answer was kept, is answered by its retry", async () => {
    const app = expectStatus(
      await call(fx.app, "POST", "/apps", { token, body: { name: "Create crash" } }),
      201,
    );
    const price = expectStatus(
      await call(fx.app, "POST", `/prices/${app.id}`, {
        token,
        body: { name: "Ticket", amount: 7, currency: "usd" },
      }),
      201,
    );
    const url = `/payments/${app.id}`;
    const body = { price_id: price.id, payment_provider: "card" };
    const api = await crashingApi("idempotency-answering");
    try {
      const died = await fetch(`${api.base}${url}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "idempotency-key": "order-crash",
        },
        body: JSON.stringify(body),
      }).catch((error: Error) => error);
      assert.ok(died instanceof Error, "the answer was lost with the process");
      assert.equal(await api.exited, "SIGKILL");
    } finally {
      api.stop();
    }
    const listed = expectStatus(await call(fx.app, "GET", url, { token }), 200);
    assert.equal(listed.length, 1, "the first try wrote its payment");
    // The retry answers that payment, as the first answer would have; no second payment.
    const retried = await call(fx.app, "POST", url, {
      token,
      body,
      headers: { "idempotency-key": "order-crash" },
    });
    assert.equal(retried.status, 201, retried.text);
    assert.equal(retried.body.id, listed[0].id);
    assert.equal(retried.body.payment_token, listed[0].payment_token);
    const replayed = await call(fx.app, "POST", url, {
      token,
      body,
      headers: { "idempotency-key": "order-crash" },
    });
    assert.equal(replayed.headers["idempotent-replayed"], "true");
    assert.equal(replayed.body.id, listed[0].id);
    const other = await call(fx.app, "POST", url, {
      token,
      body,
      headers: { "idempotency-key": "order-other" },
    });
    assert.equal(other.status, 201);
    assert.notEqual(other.body.id, listed[0].id, "another key is another payment");
    assert.equal(expectStatus(await call(fx.app, "GET", url, { token }), 200).length, 2);
  });

  test("a confirm whose process died after its change committed, before its answer was kept, is answered by its retry", async () => {
    const app = expectStatus(
      await call(fx.app, "POST", "/apps", { token, body: { name: "Crash shop" } }),
      201,
    );
    const price = expectStatus(
      await call(fx.app, "POST", `/prices/${app.id}`, {
        token,
        body: { name: "Ticket", amount: 9, currency: "usd" },
      }),
      201,
    );
    const payment = expectStatus(
      await call(fx.app, "POST", `/payments/${app.id}`, {
        token,
        body: { price_id: price.id, payment_provider: "card" },
      }),
      201,
    );
    const body = {
      payment_method: { type: "card", number: "4242424242424242", exp_month: 12, exp_year: 2099, cvc: "123" },
    };
    const url = `/payments/${app.id}/${payment.id}/confirm`;
    const api = await crashingApi("idempotency-answering");
    try {
      const died = await fetch(`${api.base}${url}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "idempotency-key": "pay-once",
        },
        body: JSON.stringify(body),
      }).catch((error: Error) => error);
      assert.ok(died instanceof Error, "the answer was lost with the process");
      assert.equal(await api.exited, "SIGKILL");
    } finally {
      api.stop();
    }
    // The confirm had committed: the retry answers it (not 409 "already being paid"), once.
    const retried = await call(fx.app, "POST", url, {
      token,
      body,
      headers: { "idempotency-key": "pay-once" },
    });
    assert.equal(retried.status, 200, retried.text);
    assert.equal(retried.body.id, payment.id);
    const replayed = await call(fx.app, "POST", url, {
      token,
      body,
      headers: { "idempotency-key": "pay-once" },
    });
    assert.equal(replayed.headers["idempotent-replayed"], "true");
    // Another confirm (another key) is still refused: one authorisation per payment.
    assertProblem(
      await call(fx.app, "POST", url, { token, body, headers: { "idempotency-key": "pay-twice" } }),
      409,
      "invalid_state_transition",
    );
  });
});
