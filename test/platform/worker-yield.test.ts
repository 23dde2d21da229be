import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type DatabaseHandle, openDatabase } from "../../src/platform/db/index.ts";
import { ApiActivity } from "../../src/platform/http/activity.ts";
import {
  apiQuiet,
  createJobs,
  type Jobs,
  YIELD_MAX_WAIT_MS,
  YIELD_QUIET_MS,
} from "../../src/platform/jobs/index.ts";
import { createLogger } from "../../src/platform/log.ts";

// The worker of a process that serves the API lets requests go first: a job waits for a quiet
// moment in the API, but never longer than YIELD_MAX_WAIT_MS, so jobs still run under constant load.

/** An API that is never quiet: a request starts or ends all the time. */
const neverQuiet = { quietFor: () => false };

/** An API whose last request ended `ms` after this call, and which is quiet from then on. */
function quietAfter(ms: number) {
  const lastAt = performance.now() + ms;
  return { quietFor: (quietMs: number) => performance.now() - lastAt >= quietMs };
}

async function timed(work: Promise<void>) {
  const start = performance.now();
  await work;
  return performance.now() - start;
}

test("a job waits for a quiet API, and no longer than the bound", async () => {
  assert.ok((await timed(apiQuiet(new ApiActivity()))) < YIELD_QUIET_MS, "never used: quiet");
  const bounded = await timed(apiQuiet(neverQuiet));
  assert.ok(bounded >= YIELD_MAX_WAIT_MS * 0.95 && bounded < YIELD_MAX_WAIT_MS * 3, `waited ${bounded} ms`);
  // Busy for about 60 ms, then quiet: the job goes shortly after the API went quiet.
  const waited = await timed(apiQuiet(quietAfter(60)));
  assert.ok(waited >= 60 + YIELD_QUIET_MS && waited < YIELD_MAX_WAIT_MS, `waited ${waited} ms`);
});

describe("the worker", () => {
  let database: DatabaseHandle;
  let jobs: Jobs;
  const name = `test.yield-${process.pid}`;
  const ran = new Set<string>();

  before(async () => {
    database = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
    jobs = createJobs(database, createLogger("silent"));
    jobs.register([{ name, handle: async (data: { label: string }) => void ran.add(data.label) }]);
    await jobs.start({ work: true, yieldTo: neverQuiet });
  });
  after(async () => {
    await jobs.stop();
    await database.close();
  });

  test("still runs every job while the API never goes quiet", async () => {
    const labels = Array.from({ length: 20 }, (_, i) => `busy-${i}`);
    await database.db.transaction(async (tx) => {
      for (const label of labels) await jobs.send(tx, name, { label });
    });
    const deadline = Date.now() + 20_000;
    while (!labels.every((label) => ran.has(label))) {
      assert.ok(Date.now() < deadline, `ran ${ran.size} of ${labels.length}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
});
