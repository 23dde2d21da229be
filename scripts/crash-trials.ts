// A crash campaign: `kill -9` at random moments across the payment lifecycle, then checks that
// nothing was lost or done twice. Runs the production topology on PostgreSQL: two API-only
// processes and a worker-only process (README, "Running in production"), contract calls on a local
// EVM node (anvil). Usage:
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run crash-trials -- --trials 200 --seed 7
//
// Each trial opens a card payment for a price whose trigger calls a contract, confirms it, and
// kills one of the three processes (chosen at random) at a random moment in the first few seconds
// of the payment's life: during the create or confirm request, while the worker authorises,
// sends the contract call, waits for confirmations, captures or pays. The dead process is started
// again, every request whose answer was lost is retried with its Idempotency-Key, and after the
// trial it checks:
//   - the payment ends `paid` (terminal, nothing left pending);
//   - the provider captured it once, for exactly its amount;
//   - the wallet sent exactly one contract call for it;
//   - every Idempotency-Key replays: sent again, it answers what it answered the first time.
// It prints one line a trial and a summary (docs/reliability.md has a 200-trial run), and exits 1
// if any check failed. It creates its own database next to DATABASE_URL and drops it at the end.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import pg from "pg";
import { privateKeyToAccount } from "viem/accounts";
import { freePort } from "../test/helpers/browser.ts";
import { startAnvil } from "../test/helpers/chains.ts";
import { http, type Running, runService, sharedDatabase, until } from "../test/helpers/processes.ts";
import { evmTrigger } from "../test/helpers/triggers.ts";

const { values } = parseArgs({
  options: {
    trials: { type: "string", default: "20" },
    seed: { type: "string", default: String(Date.now() % 100_000) },
  },
});
const TRIALS = Number(values.trials);
const SEED = Number(values.seed);
if (!process.env.DATABASE_URL) {
  console.error("crash-trials needs DATABASE_URL (a PostgreSQL server the processes share)");
  process.exit(2);
}

// A small seeded generator (mulberry32), so a campaign can be replayed with its seed.
let state = SEED >>> 0;
function random(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];

// anvil's development account 1 ("test … junk"): it holds no real funds.
const WALLET_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const WALLET_ADDRESS = privateKeyToAccount(WALLET_KEY).address;
const CARD = { type: "card", number: "4242424242424242", exp_month: 12, exp_year: 2099, cvc: "123" };

const database = await sharedDatabase();
const anvil = await startAnvil();
const env = {
  ...database.env,
  // A killed worker's job is taken for crashed after this long and runs in the next worker.
  JOB_TIMEOUT_SECONDS: "3",
  SECRETS_MASTER_KEY: randomBytes(32).toString("base64"),
  CHAINS: "real",
  EVM_TESTNET_RPC_URL: anvil.url,
  EVM_TESTNET_CHAIN_ID: "31337",
  EVM_TESTNET_CONFIRMATIONS: "1",
  EVM_TESTNET_BLOCK_SECONDS: "1",
  LOG_LEVEL: "warn",
  RATE_LIMITS: "signup_per_ip=1000/60,login_per_ip=1000/60",
};

interface Role {
  name: string;
  base: string | undefined;
  start(): Running;
  running: Running;
}
async function role(name: string, api: boolean): Promise<Role> {
  const port = api ? await freePort() : undefined;
  const start = () =>
    runService(api ? { ...env, RUN_WORKER: "false", PORT: String(port) } : { ...env, RUN_API: "false" });
  return { name, base: port ? `http://127.0.0.1:${port}` : undefined, start, running: start() };
}
const roles = [await role("api-1", true), await role("api-2", true), await role("worker", false)];
const apis = roles.filter((r) => r.base);
const ready = async (r: Role) => {
  if (r.base) await until(async () => (await http(r.base!, "GET", "/health/ready")).status === 200, r.name);
  else await new Promise((resolve) => setTimeout(resolve, 1500));
};
for (const r of roles) await ready(r);

const base0 = apis[0].base!;
const owner = await http(base0, "POST", "/auth/signup", undefined, {
  email: "crash@example.com",
  password: "correct horse battery staple",
  username: "crash",
  first_name: "Ada",
  last_name: "Lovelace",
});
const token = owner.body.token as string;
const app = (await http(base0, "POST", "/apps", token, { name: "Crash", app_fee: 0, use_explorer: false }))
  .body;
const wallet = (
  await http(base0, "POST", `/wallets/${app.id}`, token, {
    name: "Minter",
    type: "evm",
    wallet_data: { evm: { private_key: WALLET_KEY, network_id: "31337" } },
  })
).body;
const trigger = (await http(base0, "POST", `/triggers/${app.id}`, token, evmTrigger(wallet.id))).body;
const price = (
  await http(base0, "POST", `/prices/${app.id}`, token, {
    name: "Mint",
    amount: 12,
    currency: "usd",
    trigger_id: trigger.id,
    chain: "evm",
  })
).body;
assert.ok(price.id, `the price was created: ${JSON.stringify(price)}`);

/** A POST with an Idempotency-Key, sent again (to any API process) until an answer comes back. */
async function idempotent(key: string, url: string, body: unknown) {
  for (let attempt = 0; ; attempt++) {
    const r = pick(apis);
    const answer = await fetch(`${r.base}${url}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "idempotency-key": key,
      },
      body: JSON.stringify(body),
    }).catch(() => undefined);
    // A lost answer (the process died) or a key still held by a dead request: try again shortly.
    if (answer && answer.status !== 409 && answer.status < 500) {
      return { key, url, body, status: answer.status, text: await answer.text(), retried: attempt > 0 };
    }
    if (attempt > 200) throw new Error(`${url}: no answer after ${attempt} tries`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

const db = new pg.Client({ connectionString: database.url });
await db.connect();
const nonce = async () => Number(await anvil.rpc("eth_getTransactionCount", [WALLET_ADDRESS, "latest"]));

const failures: string[] = [];
const kills: Record<string, number> = {};
let retriedRequests = 0;
const started = Date.now();
for (let trial = 1; trial <= TRIALS; trial++) {
  const victim = pick(roles);
  const killAfterMs = Math.floor(random() * 4000);
  const nonceBefore = await nonce();
  const killer = new Promise<void>((resolve) =>
    setTimeout(async () => {
      victim.running.child.kill("SIGKILL");
      await victim.running.exited;
      victim.running = victim.start();
      resolve();
    }, killAfterMs),
  );
  const problems: string[] = [];
  let paymentId = "";
  try {
    const created = await idempotent(`create-${SEED}-${trial}`, `/payments/${app.id}`, {
      price_id: price.id,
      payment_provider: "card",
      trigger_data_input: {
        params_data_input: { receiver: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", quantity: trial },
      },
    });
    assert.equal(created.status, 201, created.text);
    paymentId = JSON.parse(created.text).id;
    const confirmed = await idempotent(
      `confirm-${SEED}-${trial}`,
      `/payments/${app.id}/${paymentId}/confirm`,
      {
        payment_method: CARD,
      },
    );
    assert.equal(confirmed.status, 200, confirmed.text);
    await killer;
    await ready(victim);
    retriedRequests += Number(created.retried) + Number(confirmed.retried);

    let status = "";
    await until(
      async () => {
        status = (await http(pick(apis).base!, "GET", `/payments/${app.id}/${paymentId}`, token)).body
          ?.status;
        return status === "paid";
      },
      `payment ${paymentId} to be paid`,
      90_000,
    ).catch(() => problems.push(`ended ${status}, not paid`));

    for (const first of [created, confirmed]) {
      const again = await idempotent(first.key, first.url, first.body);
      if (again.status !== first.status || again.text !== first.text) {
        problems.push(`Idempotency-Key ${first.key} answered ${again.status} after ${first.status}`);
      }
    }
    const { rows } = await db.query(
      `select i.amount, i.amount_received,
              (select count(*)::int from sandbox_events e
                where e.intent_id = i.id and e.type = 'payment_intent.succeeded') as captures
         from sandbox_intents i where i.metadata->>'payment_id' = $1`,
      [paymentId],
    );
    if (rows.length !== 1) problems.push(`${rows.length} provider intents`);
    else if (rows[0].captures !== 1 || rows[0].amount_received !== rows[0].amount) {
      problems.push(`captured ${rows[0].captures} times, ${rows[0].amount_received} of ${rows[0].amount}`);
    }
    const calls = (await nonce()) - nonceBefore;
    if (calls !== 1) problems.push(`${calls} contract calls from the wallet`);
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
    await killer;
    await ready(victim).catch(() => {});
  }
  kills[victim.name] = (kills[victim.name] ?? 0) + 1;
  const line = `trial ${trial}: killed ${victim.name} at ${killAfterMs} ms; payment ${paymentId || "none"}`;
  if (problems.length) failures.push(`${line}: ${problems.join("; ")}`);
  console.log(`${line}: ${problems.length ? `FAILED: ${problems.join("; ")}` : "ok"}`);
}

console.log(
  `\n${TRIALS} trials (seed ${SEED}) in ${Math.round((Date.now() - started) / 1000)} s; kills: ${Object.entries(
    kills,
  )
    .map(([name, n]) => `${name} ${n}`)
    .join(", ")}; ${retriedRequests} requests lost their answer and were retried`,
);
console.log(`${TRIALS - failures.length} passed, ${failures.length} failed`);
for (const failure of failures) console.log(failure);

await db.end();
for (const r of roles) r.running.child.kill("SIGKILL");
await Promise.all(roles.map((r) => r.running.exited));
await anvil.stop();
await database.drop();
process.exit(failures.length ? 1 : 0);
