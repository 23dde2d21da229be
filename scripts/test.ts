// `npm test`: every test file (or those named: `npm test -- test/payments test/apps/apps.test.ts`),
// run by node:test in four lanes, each a process that takes the next file from a shared queue when
// it is free (test/helpers/lane.ts). The longest files go first, by the times of the last run kept
// in node_modules/.cache/test-times.json, so that no lane is left with a long file at the end.
// Options (`--test-name-pattern=…`) are handed to node:test; TEST_LANES sets how many lanes (4).
// A path that is not there, a folder without tests or a bad TEST_LANES stops it with a message.
import { spawnSync } from "node:child_process";
import {
  existsSync,
  globSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";

const LANES = lanesWanted(process.env.TEST_LANES);
const root = resolve(import.meta.dirname, "..");
const timesFile = join(root, "node_modules/.cache/test-times.json");

const args = process.argv.slice(2);
const options = args.filter((arg) => arg.startsWith("-"));
const named = args.filter((arg) => !arg.startsWith("-"));
const files = testFiles(named.length > 0 ? named : ["test"]);
// With no file, node:test would look for tests everywhere itself (fixtures included): refused.
if (files.length === 0) refuse(`no *.test.ts file in ${named.join(", ")}`);

const queue = mkdtempSync(join(tmpdir(), "test-lanes-"));
writeFileSync(
  join(queue, "files.json"),
  JSON.stringify(longestFirst(files).map((file) => relative(root, file))),
);
const lanes = Array.from({ length: Math.min(LANES, files.length) }, (_, i) => {
  const lane = join(queue, `lane-${i + 1}.test.mjs`);
  writeFileSync(lane, `import ${JSON.stringify(join(root, "test/helpers/lane.ts"))};\n`);
  return lane;
});

const run = spawnSync(
  process.execPath,
  [
    "--liftoff-only",
    "--import",
    "./src/resolve-hooks.ts",
    "--test",
    "--test-timeout=120000",
    `--test-concurrency=${LANES}`,
    ...options,
    ...lanes,
  ],
  { cwd: root, stdio: "inherit", env: laneEnv(queue) },
);
keepTimes(queue);
rmSync(queue, { recursive: true, force: true });
process.exit(run.status ?? 1);

/** The lanes' environment: this run's queue, and not the context of a test run this one is inside. */
function laneEnv(dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, TEST_LANE_QUEUE: dir };
  // node:test tells a file's process it is one by this variable; a run started from inside a test
  // (test/platform/test-lanes.test.ts) would otherwise report to no one.
  delete env.NODE_TEST_CONTEXT;
  return env;
}

function refuse(message: string): never {
  console.error(`npm test: ${message}`);
  process.exit(2);
}

function lanesWanted(value: string | undefined): number {
  if (value === undefined) return 4;
  const lanes = Number(value);
  if (!Number.isInteger(lanes) || lanes < 1)
    refuse(`TEST_LANES must be a whole number from 1, not "${value}"`);
  return lanes;
}

function testFiles(paths: string[]): string[] {
  const missing = paths.filter((path) => !existsSync(path));
  if (missing.length > 0) refuse(`no such file or folder: ${missing.join(", ")}`);
  const found = paths.flatMap((path) =>
    statSync(path).isDirectory()
      ? globSync("**/*.test.ts", { cwd: path }).map((file) => join(path, file))
      : [path],
  );
  return [...new Set(found.map((file) => resolve(file)))].sort();
}

/** Known times longest first; files without a time (new ones) before all, largest first. */
function longestFirst(list: string[]): string[] {
  const times = readTimes();
  const weight = (file: string) => times[relative(root, file)] ?? 1e12 + statSync(file).size;
  return [...list].sort((a, b) => weight(b) - weight(a));
}

function readTimes(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(timesFile, "utf8"));
  } catch {
    return {};
  }
}

function keepTimes(dir: string): void {
  const log = join(dir, "times.jsonl");
  if (!existsSync(log)) return;
  const times = readTimes();
  for (const line of readFileSync(log, "utf8").split("\n").filter(Boolean)) {
    const { file, ms } = JSON.parse(line) as { file: string; ms: number };
    times[file] = ms;
  }
  mkdirSync(join(root, "node_modules/.cache"), { recursive: true });
  // Written whole and renamed into place: a run started by a test (test-lanes.test.ts) reads it too.
  const temporary = `${timesFile}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(times, null, 1));
  renameSync(temporary, timesFile);
}
