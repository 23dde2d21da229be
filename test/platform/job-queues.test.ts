import assert from "node:assert/strict";
import { test } from "node:test";
import { sql } from "drizzle-orm";
import { drizzleRunner } from "../../src/platform/db/index.ts";
import { buildTestApp, type TestApp } from "../helpers/app.ts";
import { eventually } from "../helpers/contract.ts";

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

test("every scheduled job runs as its schedule sends it, and as a schedule made without data did", async (t) => {
  // pg-boss sends a schedule's job with the data stored with the schedule: the jobs are sent here
  // with exactly that, read back from pg-boss, as its clock would send them (once a minute at most,
  // too slow to wait for). Schedules made before they had data sent null, which every scheduled
  // job failed on ("Cannot destructure property '_trace' of 'data' as it is null").
  const app = await buildTestApp();
  t.after(() => app.close());
  const { boss } = app.deps.jobs;
  const schedules = (await boss.getSchedules()).filter((s) => !s.name.startsWith("__pgboss__"));
  assert.ok(schedules.length >= 4, `the sweeps are scheduled (${schedules.map((s) => s.name)})`);
  for (const schedule of schedules) {
    assert.deepEqual(schedule.data, {}, `${schedule.name} is scheduled with data`);
    for (const data of [schedule.data, null]) {
      const id = await boss.send(schedule.name, data as object);
      assert.ok(id, schedule.name);
      const job = await eventually(async () => {
        const found = await boss.getJobById(schedule.name, id);
        return found && ["completed", "failed", "retry"].includes(found.state) ? found : undefined;
      });
      assert.equal(
        job.state,
        "completed",
        `${schedule.name} with ${JSON.stringify(data)}: ${JSON.stringify(job.output)}`,
      );
    }
  }
});
