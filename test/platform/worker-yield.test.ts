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

/** Keeps `activity` busy: a request starts or ends every few milliseconds. */
function busy(activity: ApiActivity) {
  activity.touch();
  const timer = setInterval(() => activity.touch(), YIELD_QUIET_MS / 4);
  return () => clearInterval(timer);
}

async function timed(work: Promise<void>) {
  const start = performance.now();
  await work;
  return performance.now() - start;
}

test("a job waits for a quiet API, and no longer than the bound", async () => {
  const activity = new ApiActivity();
  assert.ok((await timed(apiQuiet(activity))) < YIELD_QUIET_MS, "never used: quiet");
  const stop = busy(activity);
  try {
    const waited = await timed(apiQuiet(activity));
    assert.ok(waited >= YIELD_MAX_WAIT_MS * 0.95 && waited < YIELD_MAX_WAIT_MS * 3, `waited ${waited} ms`);
  } finally {
    stop();
  }
  // Busy, then quiet after about 60 ms: the job goes shortly after the API went quiet.
  const stopSoon = busy(activity);
  setTimeout(stopSoon, 60);
  const waited = await timed(apiQuiet(activity));
  assert.ok(waited >= 60 && waited < YIELD_MAX_WAIT_MS, `waited ${waited} ms`);
});

describe("the worker", () => {
  let database: DatabaseHandle;
  let jobs: Jobs;
  const activity = new ApiActivity();
  const name = `test.yield-${process.pid}`;
  const ran = new Set<string>();

  before(async () => {
    database = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
    jobs = createJobs(database, createLogger("silent"));
    jobs.register([{ name, handle: async (data: { label: string }) => void ran.add(data.label) }]);
    await jobs.start({ work: true, yieldTo: activity });
  });
  after(async () => {
    await jobs.stop();
    await database.close();
  });

  test("still runs every job while the API never goes quiet", async () => {
    const stop = busy(activity);
    try {
      const labels = Array.from({ length: 20 }, (_, i) => `busy-${i}`);
      await database.db.transaction(async (tx) => {
        for (const label of labels) await jobs.send(tx, name, { label });
      });
      const deadline = Date.now() + 20_000;
      while (!labels.every((label) => ran.has(label))) {
        assert.ok(Date.now() < deadline, `ran ${ran.size} of ${labels.length}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      stop();
    }
  });
});
