import assert from "node:assert/strict";
import { test } from "node:test";
import { onPostgres } from "../helpers/app.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { createPrice } from "../helpers/prices.ts";

// A price edit raises its app's context version (migration 0023), so it locks the price's row and
// then the app's, while an app's delete locks the app's row and then, deleting what is in it, the
// price's. Run at the same moment, PostgreSQL breaks the deadlock by rolling one back: that request
// is answered 409, having written nothing, never 500.
const fx = useTestApp();

// The embedded engine is one connection: two transactions never wait on each other there.
const skip = onPostgres ? false : "PostgreSQL only: the embedded database runs one transaction at a time";

test("a price edit that deadlocks with a concurrent change answers 409 and changes nothing", {
  skip,
}, async () => {
  const appId = fx.tenants.app.id;
  const price = await createPrice(fx.app, fx.tenants.owner.token, appId, { name: "Before" });
  // Another session plays the app's delete: the app's row first, then (below) the price's.
  const other = await fx.app.deps.database.pool!.connect();
  try {
    await other.query("begin");
    await other.query("select 1 from apps where id = $1 for update", [appId]);
    const edit = call(fx.app, "PATCH", `/prices/${appId}/${price.id}`, {
      token: fx.tenants.owner.token,
      body: { name: "After" },
    });
    // The edit holds the price's row and waits for the app's; then this session waits for the
    // price's. The edit waited first, so its deadlock check (after deadlock_timeout) finds the cycle.
    await waitUntilBlocked(other);
    const locking = other.query("select 1 from prices where id = $1 for update", [price.id]);
    assertProblem(await edit, 409, "conflict");
    await locking;
    await other.query("rollback");
  } finally {
    other.release();
  }
  const stored = expectStatus(
    await call(fx.app, "GET", `/prices/${appId}/${price.id}`, { token: fx.tenants.owner.token }),
    200,
  );
  assert.equal(stored.name, "Before");
});

/** Until a session's price update waits for a lock (the edit's trigger, on the app's row), for at most 5 s. */
async function waitUntilBlocked(client: { query: (text: string) => Promise<{ rows: unknown[] }> }) {
  for (let tries = 0; tries < 100; tries++) {
    // This session is inside a transaction, which keeps one snapshot of the activity unless cleared.
    await client.query("select pg_stat_clear_snapshot()");
    const { rows } = await client.query(
      `select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like 'update "prices"%'`,
    );
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the price edit never waited for the app's row");
}
