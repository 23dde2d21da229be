// `npm test`'s lanes (scripts/test.ts, test/helpers/lane.ts): files sharing a process keep their
// hooks to themselves, and every failure, a file that fails to load included, fails the run; CI's
// second pass skips the files that test nothing of the engine (test/helpers/engine-pass.ts).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { globSync } from "node:fs";
import { test } from "node:test";
import { ENGINE_INDEPENDENT_FILES } from "../helpers/engine-pass.ts";

const FIXTURES = "test/fixtures/lanes";

/** This process's environment less node:test's mark of a file run by a runner. */
function withoutTestContext(): NodeJS.ProcessEnv {
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  return env;
}

function runTests(lanes: number, files: string[]): { status: number | null; output: string } {
  const run = spawnSync(
    process.execPath,
    ["scripts/test.ts", ...files.map((file) => `${FIXTURES}/${file}`)],
    {
      encoding: "utf8",
      env: { ...withoutTestContext(), TEST_LANES: String(lanes) },
    },
  );
  return { status: run.status, output: run.stdout + run.stderr };
}

test("two files in one lane: each file's top-level hooks hold for its own tests only", () => {
  const { status, output } = runTests(1, ["one.ts", "two.ts"]);
  assert.equal(status, 0, output);
  const lanes = [...output.matchAll(/lane (\d+) saw (\d+)/g)].map((match) => [match[1], Number(match[2])]);
  assert.equal(lanes.length, 2, output);
  assert.equal(lanes[0]?.[0], lanes[1]?.[0], "both files ran in the same process");
  assert.deepEqual(lanes.map(([, saw]) => saw).sort(), [1, 4], "the second saw the first's hooks, all ended");
});

test("a failing test and a file that fails to load fail the run; the lane goes on with the next file", () => {
  const { status, output } = runTests(1, ["failing.ts", "broken.ts", "one.ts"]);
  assert.equal(status, 1, output);
  assert.match(output, /a test that fails on purpose/);
  assert.match(output, /this file fails to load on purpose/);
  assert.match(output, /✔ test\/fixtures\/lanes\/one\.ts/);
});

test("control: with node:test's own --test-isolation=none the same two files see each other's hooks, and fail", () => {
  const files = ["one.ts", "two.ts"].map((file) => `${FIXTURES}/${file}`);
  const run = spawnSync(process.execPath, ["--test", "--test-isolation=none", ...files], {
    encoding: "utf8",
    env: withoutTestContext(),
  });
  assert.equal(run.status, 1, run.stdout);
  assert.match(run.stdout, /ℹ fail 2/);
});

test("a bad TEST_LANES or a folder without tests stops the run with a message, running nothing", () => {
  const lanes = spawnSync(process.execPath, ["scripts/test.ts", `${FIXTURES}/one.ts`], {
    encoding: "utf8",
    env: { ...withoutTestContext(), TEST_LANES: "none" },
  });
  assert.equal(lanes.status, 2, lanes.stdout);
  assert.match(lanes.stderr, /TEST_LANES must be a whole number from 1, not "none"/);
  const empty = spawnSync(process.execPath, ["scripts/test.ts", "docs"], {
    encoding: "utf8",
    env: withoutTestContext(),
  });
  assert.equal(empty.status, 2, empty.stdout);
  assert.match(empty.stderr, /no \*\.test\.ts file in docs/);
  assert.doesNotMatch(empty.stdout + lanes.stdout, /ℹ tests/, "no test ran");
});

test("with ENGINE_INDEPENDENT_TESTS=skip an engine-independent file is skipped unloaded, with its reason; the others run", () => {
  const skipped = "test/money/amount.test.ts";
  const run = spawnSync(process.execPath, ["scripts/test.ts", skipped, `${FIXTURES}/one.ts`], {
    encoding: "utf8",
    env: { ...withoutTestContext(), TEST_LANES: "1", ENGINE_INDEPENDENT_TESTS: "skip" },
  });
  assert.equal(run.status, 0, run.stdout);
  assert.match(run.stdout, /﹣ test\/money\/amount\.test\.ts .*# tests nothing of the database engine/);
  assert.match(run.stdout, /ℹ skipped 1\n/);
  assert.match(run.stdout, /✔ test\/fixtures\/lanes\/one\.ts/);
  // Control: without the variable the same file runs its own tests.
  const control = spawnSync(process.execPath, ["scripts/test.ts", skipped], {
    encoding: "utf8",
    env: { ...withoutTestContext(), TEST_LANES: "1" },
  });
  assert.equal(control.status, 0, control.stdout);
  assert.match(control.stdout, /ℹ skipped 0\n/);
  assert.match(control.stdout, /▶ test\/money\/amount\.test\.ts/);
});

test("every pattern of the engine-independent files names a test file", () => {
  for (const pattern of ENGINE_INDEPENDENT_FILES) {
    assert.ok(
      globSync(pattern).some((file) => file.endsWith(".test.ts")),
      `${pattern} names no test file`,
    );
  }
});
