import assert from "node:assert/strict";
import { test } from "node:test";
import { onPostgres } from "../helpers/app.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";

// One pooled connection, and a short wait for it: the test holds it and asks for more.
const fx = useTestApp({ DATABASE_POOL_SIZE: "1", DATABASE_POOL_WAIT_MS: "1500" });

// The embedded engine is one connection shared in process, with no pool to exhaust.
const skip = onPostgres ? false : "PostgreSQL only: the embedded database has no connection pool";

test("a request finding every pooled connection busy answers 503 with Retry-After, then 200", {
  skip,
}, async () => {
  const { t, f } = fx;
  const pool = t.deps.database.pool!;
  assert.equal(pool.options.max, 1, "DATABASE_POOL_SIZE reached the pool");
  const url = `/payments/${f.app.id}`;
  expectStatus(await call(t, "GET", url, { token: f.owner.token }), 200);
  const held = await pool.connect();
  try {
    const started = Date.now();
    const busy = await call(t, "GET", url, { token: f.owner.token });
    assertProblem(busy, 503, "service_busy");
    assert.equal(busy.headers["retry-after"], "1");
    assert.ok(Date.now() - started >= 1400, "it waited DATABASE_POOL_WAIT_MS for a connection first");
  } finally {
    held.release();
  }
  expectStatus(await call(t, "GET", url, { token: f.owner.token }), 200);
});
