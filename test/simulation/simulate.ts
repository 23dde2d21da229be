import { buildTestApp, type TestApp } from "../helpers/app.ts";
import { FakeClock } from "../helpers/clock.ts";
import { newMasterKey } from "../helpers/wallets.ts";
import { checkInvariants, isSettled, readFinalState, reconcile, summary } from "./invariants.ts";
import { runAction } from "./runner.ts";
import { describeAction, generateScenario, LONG_AUCTION_MINUTES, type ScenarioOptions } from "./scenario.ts";
import { advance, settle, sweep } from "./time.ts";
import { SimulationFailure, World } from "./world.ts";

/**
 * The service as the simulation runs it: sandbox card provider and chains, a chain that confirms
 * in a fraction of a second (so a run takes seconds), holds that lapse within hours
 * (AUCTION_HOLD_HOURS=2: a bid's hold is live for 90 minutes) and pending payments that expire
 * after the default day.
 */
export const SIMULATION_ENV: Record<string, string> = {
  WEBHOOKS_ALLOW_LOOPBACK: "true",
  EVM_TESTNET_CONFIRMATIONS: "2",
  EVM_TESTNET_BLOCK_SECONDS: "0.2",
  AUCTION_HOLD_HOURS: "2",
  PENDING_PAYMENT_TTL_HOURS: "24",
};

/** Past every bound a run can set: the pending TTL, the holds' lifetime, the longest auction. */
const PAST_EVERY_BOUND_MS = Math.max(24 * 60, 2 * 60, LONG_AUCTION_MINUTES) * 60_000 + 3_600_000;

export interface SeedResult {
  seed: number;
  steps: number;
  ok: boolean;
  /** The steps and their answers, then the violations: what a failing run prints. */
  log: string[];
  violations: string[];
  ms: number;
}

export interface Service {
  t: TestApp;
  clock: FakeClock;
}

/** The service a run drives; several seeds may share one (each seed sets up its own app). */
export async function startService(): Promise<Service> {
  const clock = new FakeClock();
  const t = await buildTestApp({ ...SIMULATION_ENV, SECRETS_MASTER_KEY: newMasterKey() }, { now: clock.now });
  return { t, clock };
}

/**
 * One seed, from its scenario to its verdict: set up a tenant, run the steps, then pass every
 * bound (the clock a day and more ahead, the sweep run) and wait until nothing waits, and check
 * the invariants. The service may have been restarted: `service.t` is the one that runs now.
 */
export async function runSeed(service: Service, seed: number, options: ScenarioOptions): Promise<SeedResult> {
  const started = Date.now();
  const world = new World(service.t, service.clock, `sim${seed}`);
  const actions = generateScenario(seed, options);
  let violations: string[] = [];
  try {
    await world.setUp();
    world.note(`seed ${seed}: app ${world.appId}, ${actions.length} steps`);
    for (const [step, action] of actions.entries()) {
      const line = `#${step} ${describeAction(action)}`;
      const at = Date.now();
      try {
        const outcome = await runAction(world, action, step);
        world.note(`${line} -> ${outcome} (${Date.now() - at} ms)`);
      } catch (error) {
        world.note(`${line} -> FAILED`);
        throw error;
      }
    }
    await finish(world);
    const state = { ...(await readFinalState(world)), reconciliation: await reconcile(world) };
    world.note(summary(state));
    violations = checkInvariants(world, state);
  } catch (error) {
    if (!(error instanceof SimulationFailure)) throw error;
    violations = [`step failed: ${error.message}`];
  } finally {
    service.t = world.t;
    await world.receiver.stop();
  }
  const log = [...world.log, ...violations.map((v) => `VIOLATION ${v}`)];
  return {
    seed,
    steps: options.length,
    ok: violations.length === 0,
    log,
    violations,
    ms: Date.now() - started,
  };
}

/**
 * The end of a run: every bound passes (a day and more on the clock, for the service and its
 * queue), the abandoned-cart sweep runs, the provider resumes the seller's payouts, the app refunds
 * what the chain failed to deliver on a collected debit (`failed-captured`: the money waits for
 * the app's decision) and retries the sellers' transfers that failed (`failed-transfers`), and the
 * run waits for the state, re-running the sweep, until nothing is left waiting.
 */
async function finish(world: World) {
  // The provider lifts any pause on the seller's payouts; the app retries what it could not pay.
  await world.pausePayouts(false);
  await settle(world);
  await advance(world, PAST_EVERY_BOUND_MS);
  world.note(`final: clock at ${world.clock.now().toISOString()}`);
  const deadline = Date.now() + 90_000;
  for (;;) {
    await sweep(world);
    await settle(world, 1000, 10_000);
    const state = await readFinalState(world);
    const unrefunded = state.payments.filter((p) => p.status === "failed-captured");
    for (const p of unrefunded) {
      const answer = await world.call("POST", `/payments/${world.appId}/${p.id}/refund`, [200, 409], {
        body: {},
      });
      world.note(`final: refund failed-captured ${p.id} -> ${answer.status}`);
    }
    const unpaidSellers = state.payments.filter((p) => p.status === "failed-transfers");
    for (const p of unpaidSellers) {
      const answer = await world.call("POST", `/payments/${world.appId}/${p.id}/retry`, [200, 409], {
        body: {},
      });
      world.note(`final: retry failed-transfers ${p.id} -> ${answer.status}`);
    }
    if (unrefunded.length === 0 && unpaidSellers.length === 0 && isSettled(state)) return;
    if (Date.now() > deadline) {
      world.note("final: gave up waiting; what still waits is reported below");
      return;
    }
  }
}

/** The lines a failing run prints: its seed first, how to replay it, then its log. */
export function report(result: SeedResult): string {
  return [`simulation seed ${result.seed} failed; replay it with ${replay(result)}`, ...result.log].join(
    "\n",
  );
}

/** The command that runs this seed again, alone. */
export const replay = (result: Pick<SeedResult, "seed" | "steps">) =>
  `SIM_SEED=${result.seed} SIM_STEPS=${result.steps} node --test test/simulation/simulation.test.ts`;
