import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { buildTestApp, onPostgres, type TestApp } from "../helpers/app.ts";
import { assertProblem, call, expectStatus, signup } from "../helpers/http.ts";

let t: TestApp;
let token: string;
before(async () => {
  t = await buildTestApp();
  token = (await signup(t)).token;
});
after(() => t.close());

const post = (key: string, body: Record<string, unknown>, as = token) =>
  call(t, "POST", "/apps", { token: as, body, headers: { "idempotency-key": key } });

async function appCount(as = token) {
  return Number((await call(t, "GET", "/apps?limit=1", { token: as })).headers["x-total-count"]);
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
    const other = (await signup(t)).token;
    const mine = expectStatus(await post("shared-key", { name: "Mine" }), 201);
    const theirs = expectStatus(await post("shared-key", { name: "Mine" }, other), 201);
    assert.notEqual(mine.id, theirs.id);
  });

  test("a refused request stores nothing: the corrected request can use the key", async () => {
    assertProblem(await post("order-3", { name: "Bad", app_fee: 1.234 }), 400, "validation_failed");
    expectStatus(await post("order-3", { name: "Good", app_fee: 1.23 }), 201);
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
