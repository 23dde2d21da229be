import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type DatabaseHandle, openDatabase } from "../../src/platform/db/index.ts";
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

/** An API whose last request ends `ms` from now, quiet from then on; keeps each answer it gave. */
function quietAfter(ms: number) {
  const lastAt = performance.now() + ms;
  const answers: boolean[] = [];
  return {
    answers,
    quietFor: (quietMs: number) => {
      answers.push(performance.now() - lastAt >= quietMs);
      return answers.at(-1)!;
    },
  };
}

/** How long `work` took, timed from before it is made (so its own set-up is inside the figure). */
async function timed(work: () => Promise<void>) {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

// What is asserted is what the code decides (it asks, waits, stops asking once quiet or at the
// bound); the upper time bounds leave a loaded machine's late timers room, since CI runs this with
// the rest of the suite on two cores (a 250 ms bound once measured 1 ms short of 3 times itself).
test("a job waits for a quiet API, and no longer than the bound", async () => {
  const quietNow = quietAfter(-YIELD_QUIET_MS);
  await apiQuiet(quietNow);
  assert.deepEqual(quietNow.answers, [true], "an API quiet already is asked once, with no wait");
  const bounded = await timed(() => apiQuiet(neverQuiet));
  assert.ok(bounded >= YIELD_MAX_WAIT_MS * 0.95, `waited ${bounded} ms`);
  assert.ok(bounded < YIELD_MAX_WAIT_MS + 2_000, `waited ${bounded} ms`);
  // Busy for about 60 ms, then quiet: the job goes once the API is quiet, not at the bound.
  let api = quietAfter(0);
  const waited = await timed(() => {
    api = quietAfter(60);
    return apiQuiet(api);
  });
  assert.ok(waited >= 60 + YIELD_QUIET_MS, `waited ${waited} ms`);
  // It asked while the API was busy and went on at the first quiet answer (not at the bound).
  const { answers } = api;
  assert.ok(answers.length >= 2 && answers[0] === false, `answers ${answers}`);
  assert.equal(answers.indexOf(true), answers.length - 1, `answers ${answers}`);
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
