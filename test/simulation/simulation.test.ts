import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { report, runSeed, type Service, startService } from "./simulate.ts";

// A deterministic simulation of the service (docs/reliability.md, "Simulation"): each seed is a
// scenario of random creates, confirms, 3-D Secure answers, cancels, refunds, retries, auction bids
// and closes, chain outcomes, clock jumps and a restart, run against the real service through its
// API; then every bound passes and the invariants are checked. A few fixed seeds run here, on the
// suite's engine; `SIM_SEED=<n>` replays one seed, `npm run simulate -- --seeds N` runs more.

const SEEDS = process.env.SIM_SEED ? [Number(process.env.SIM_SEED)] : [1, 2, 3];
const STEPS = Number(process.env.SIM_STEPS ?? 25);

let service: Service;
before(async () => {
  service = await startService();
});
after(async () => {
  await service?.t.close();
});

for (const seed of SEEDS) {
  test(`simulation seed ${seed}: ${STEPS} steps, then every bound passed`, async () => {
    const result = await runSeed(service, seed, { length: STEPS, restarts: true });
    if (process.env.SIM_VERBOSE) console.log(result.log.join("\n"), `\n${result.ms} ms`);
    assert.ok(result.ok, report(result));
  });
}
