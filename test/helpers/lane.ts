// One lane of `npm test` (scripts/test.ts): a process that runs test files one after another,
// each claimed from the run's shared queue when the lane is free, so that four lanes finish
// together and every file after a lane's first skips Node's start and the imports (about 1.4 s of
// CPU a file; docs/benchmarks.md, "Test files sharing a process").
//
// Each file is imported inside a `describe` named after it: node:test then gives the file's
// top-level `test`, `before`, `after`, `beforeEach` and `afterEach` to that suite, so they hold for
// that file's tests only, as when the file is a process of its own. (node:test's own
// `--test-isolation=none` makes them hooks of the whole run instead.) A file that fails to load
// fails its suite, and the lane goes on with the next one. A file CI's second pass skips
// (test/helpers/engine-pass.ts) is not loaded: it is reported as one skipped test, with its reason.
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { ranInTheOtherPass } from "./engine-pass.ts";

const given = process.env.TEST_LANE_QUEUE;
if (!given) throw new Error("a lane runs under scripts/test.ts, which sets TEST_LANE_QUEUE");
const queue: string = given;
const files: string[] = JSON.parse(readFileSync(join(queue, "files.json"), "utf8"));

/** Claims file `index` for this lane: creating a directory is atomic, so one lane wins it. */
function claim(index: number): boolean {
  try {
    mkdirSync(join(queue, `claim-${index}`));
    return true;
  } catch (error) {
    // Another lane has it. Anything else (the queue gone) must fail the run, not skip its files.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

for (let index = 0; index < files.length; index++) {
  if (!claim(index)) continue;
  const file = files[index] as string;
  const skip = ranInTheOtherPass(file);
  if (skip) {
    test(file, { skip }, () => {});
    continue;
  }
  // The suite's body runs now (node:test builds a suite when it is declared) and its tests when the
  // lane's root reaches it; the next file is claimed once this one's last `after` hook has run.
  await new Promise<void>((done) => {
    describe(file, async () => {
      let started = 0;
      before(() => {
        started = performance.now();
      });
      try {
        await import(pathToFileURL(resolve(file)).href);
      } finally {
        after(() => {
          const ms = Math.round(performance.now() - started);
          appendFileSync(join(queue, "times.jsonl"), `${JSON.stringify({ file, ms })}\n`);
          done();
        });
      }
    });
  });
}
