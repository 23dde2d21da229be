import assert from "node:assert/strict";
import { test } from "node:test";
import { sql } from "drizzle-orm";
import { drizzleRunner } from "../../src/platform/db/index.ts";
import { buildTestApp, type TestApp } from "../helpers/app.ts";

async function queues(
  app: TestApp,
): Promise<Map<string, { expire: number; retryLimit: number; notify: boolean }>> {
  const rows = await drizzleRunner(app.deps.db)(
    // pg-boss's own queues (`__pgboss__…`) keep pg-boss's options.
    sql`select name, expire_seconds, retry_limit, notify from pgboss.queue
        where name not like '\_\_pgboss\_\_%' order by name`,
  );
  return new Map(
    rows.map((row) => [
      String(row.name),
      {
        expire: Number(row.expire_seconds),
        retryLimit: Number(row.retry_limit),
        notify: Boolean(row.notify),
      },
    ]),
  );
}

test("a queue follows the settings of each start: a new JOB_TIMEOUT_SECONDS reaches the queues a database already has", async (t) => {
  let app = await buildTestApp({ JOB_TIMEOUT_SECONDS: "300" });
  t.after(() => app.close());
  const first = await queues(app);
  assert.ok(first.size > 10, `every registered job has its queue (${first.size})`);
  for (const [name, queue] of first) {
    assert.equal(queue.expire, 300, name);
    assert.ok(queue.notify, `${name} wakes its worker`);
  }
  const retries = new Map([...first].map(([name, queue]) => [name, queue.retryLimit]));

  app = await app.restart({ JOB_TIMEOUT_SECONDS: "120" });
  const second = await queues(app);
  assert.deepEqual([...second.keys()], [...first.keys()], "the same queues, none made twice");
  for (const [name, queue] of second) {
    assert.equal(queue.expire, 120, `${name} takes the new timeout`);
    assert.equal(queue.retryLimit, retries.get(name), `${name} keeps its job's retry limit`);
  }
});
