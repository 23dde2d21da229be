// Runs the simulation (test/simulation, docs/reliability.md "Simulation") over many seeds and prints
// a summary; a failing seed prints its log and how to replay it. Each seed runs on a service of its
// own, as `SIM_SEED=<n>` replays it in the test.
//
//   npm run simulate -- --seeds 20             20 seeds from a random start (printed)
//   npm run simulate -- --seeds 5 --from 100   seeds 100..104
//   npm run simulate -- --seeds 5 --steps 60   longer scenarios
//   npm run simulate -- --seeds 1 --verbose     every run's log, passed or not
//
// DATABASE_URL=postgres://… runs it on PostgreSQL, as the tests do.
import { parseArgs } from "node:util";
import { freshSeed } from "../test/simulation/prng.ts";
import { replay, report, runSeed, type SeedResult, startService } from "../test/simulation/simulate.ts";

const { values } = parseArgs({
  options: {
    seeds: { type: "string", default: "10" },
    from: { type: "string" },
    steps: { type: "string", default: "40" },
    "no-restarts": { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
  },
});
const count = Number(values.seeds);
const from = values.from === undefined ? freshSeed() : Number(values.from);
const steps = Number(values.steps);
if (![count, from, steps].every(Number.isSafeInteger) || count < 1 || steps < 1) {
  console.error("usage: npm run simulate -- [--seeds N] [--from SEED] [--steps N] [--no-restarts]");
  process.exit(2);
}

console.log(`simulating ${count} seeds from ${from}, ${steps} steps each`);
const results: SeedResult[] = [];
for (let i = 0; i < count; i++) {
  const seed = (from + i) >>> 0;
  const service = await startService();
  try {
    const result = await runSeed(service, seed, { length: steps, restarts: !values["no-restarts"] });
    results.push(result);
    const ended = result.log.find((line) => line.startsWith("ended with")) ?? "";
    console.log(
      `seed ${seed}: ${result.ok ? "ok" : "FAILED"} in ${(result.ms / 1000).toFixed(1)} s; ${ended}`,
    );
    if (!result.ok) console.log(report(result));
    else if (values.verbose) console.log(result.log.join("\n"));
  } finally {
    await service.t.close();
  }
}

const failed = results.filter((r) => !r.ok);
const seconds = results.reduce((s, r) => s + r.ms, 0) / 1000;
console.log(
  `\n${results.length} seeds, ${results.length - failed.length} passed, ${failed.length} failed, ${seconds.toFixed(0)} s of runs`,
);
for (const r of failed) {
  console.log(`  seed ${r.seed}: ${r.violations[0]}\n    replay: ${replay(r)}`);
}
process.exit(failed.length > 0 ? 1 : 0);
