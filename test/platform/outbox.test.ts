import assert from "node:assert/strict";
import { test } from "node:test";
import { sql } from "drizzle-orm";
import { PREPARE_INTENT_JOB } from "../../src/modules/payments/job-names.ts";
import { statementRunner, writeIf } from "../../src/platform/db/index.ts";
import { jobOutbox } from "../../src/platform/jobs/outbox-table.ts";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";

// Jobs written as parts of a hand-written statement wait in the outbox until the relay moves them
// into pg-boss, each batch in one transaction: every job arrives once, whoever relays.

const fx = useTestApp({}, { tenants: false });

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const result = await fx.app.deps.db.execute(query);
  return ((result as { rows?: unknown[] }).rows ?? result) as T[];
}

/** Writes `count` intent jobs for made-up payments (the job finds no payment and ends). */
async function writeJobs(prefix: string, count: number) {
  const jobs = Array.from({ length: count }, (_, i) =>
    fx.app.deps.jobs.sendPart(PREPARE_INTENT_JOB, { paymentId: `${prefix}${i}` }),
  );
  await statementRunner(fx.app.deps.database)(
    writeIf({ condition: sql`true`, writes: () => jobs, answer: sql`1` }),
  );
}

async function relayed(prefix: string) {
  const [row] = await rows<{ jobs: number; distinct: number; waiting: number }>(sql`
    select (select count(*)::int from pgboss.job where name = ${PREPARE_INTENT_JOB} and data->>'paymentId' like ${`${prefix}%`}) as jobs,
      (select count(distinct data->>'paymentId')::int from pgboss.job where name = ${PREPARE_INTENT_JOB} and data->>'paymentId' like ${`${prefix}%`}) as distinct,
      (select count(*)::int from job_outbox where data->>'paymentId' like ${`${prefix}%`}) as waiting`);
  return row;
}

test("every job written to the outbox reaches pg-boss once, with relays racing", async () => {
  for (let batch = 0; batch < 4; batch++) await writeJobs(`pay_race${batch}_`, 300);
  // The process's own relay runs too; these two race it and each other.
  const [a, b] = await Promise.all([fx.app.deps.jobs.drainOutbox(), fx.app.deps.jobs.drainOutbox()]);
  assert.ok(a + b <= 1200);
  const counts = await eventually(async () => {
    const found = await relayed("pay_race");
    return found.waiting === 0 ? found : undefined;
  });
  assert.deepEqual(counts, { jobs: 1200, distinct: 1200, waiting: 0 });
});

test("the relay moves a committed write at once, without waiting for its next look", async () => {
  await writeJobs("pay_soon_", 1);
  fx.app.deps.jobs.relaySoon();
  // The relay otherwise looks every half second; `relaySoon` brings it forward.
  await eventually(async () => ((await relayed("pay_soon_")).jobs === 1 ? true : undefined), 400);
});

test("rows of a queue no job is registered under stay in the outbox and hold back nothing", async () => {
  await fx.app.deps.db
    .insert(jobOutbox)
    .values({ name: "no-such-queue", data: { paymentId: "pay_stuck_0" } });
  await writeJobs("pay_after_stuck_", 3);
  await fx.app.deps.jobs.drainOutbox();
  await eventually(async () => ((await relayed("pay_after_stuck_")).jobs === 3 ? true : undefined));
  const stuck = await rows<{ n: number }>(
    sql`select count(*)::int as n from job_outbox where name = 'no-such-queue'`,
  );
  assert.equal(stuck[0].n, 1);
  await fx.app.deps.db.execute(sql`delete from job_outbox where name = 'no-such-queue'`);
});

test("a part for a queue no job is registered under is refused before anything is written", () => {
  assert.throws(() => fx.app.deps.jobs.sendPart("no-such-queue", {}), /No job is registered/);
});
