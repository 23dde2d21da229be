import os from "node:os";
import autocannon from "autocannon";
import pg from "pg";
import { countingEnv, json, lifecycle, tenant } from "./journey.ts";
import { freshDatabase, startChild } from "./processes.ts";

const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const QUEUES = [
  "payments.authorize",
  "payments.sync",
  "payments.execute",
  "payments.settle",
  "webhooks.deliver",
];
async function run(env: Record<string, string>, separateWorker: boolean) {
  // PGlite is one process's database: there the worker runs inside the API process.
  // BENCH_API_NODE_OPTIONS reaches the API process alone (on PGlite, API and worker: `--cpu-prof`).
  const apiOptions = process.env.BENCH_API_NODE_OPTIONS;
  const api = await startChild<{ app: number; bare: number; engine: string }>("bench/server.ts", {
    ...env,
    ...countingEnv(PAYMENTS),
    RUN_WORKER: separateWorker ? "false" : "true",
    ...(apiOptions ? { NODE_OPTIONS: apiOptions } : {}),
  });
  // BENCH_WORKER_NODE_OPTIONS reaches the worker alone (a CPU profile of it: `--cpu-prof`).
  const workerOptions = process.env.BENCH_WORKER_NODE_OPTIONS;
  let worker: Awaited<ReturnType<typeof startChild>> | undefined;
  const base = `http://127.0.0.1:${api.ready.app}`;
  const bare = `http://127.0.0.1:${api.ready.bare}`;
  try {
    if (separateWorker) {
      worker = await startChild(
        "bench/worker.ts",
        workerOptions ? { ...env, NODE_OPTIONS: workerOptions } : env,
      );
    }
    const who = await tenant(base, "life");
    // The control: the bare INSERT route at full speed, in this run, on this machine.
    const control = await autocannon({
      url: `${bare}/bare/inserts`,
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
      connections: 32,
      duration: 5,
    });
    const bareRps = Math.round(control.requests.average);

    const before = await jobTotals(bare);
    const indexesBefore = await indexReads(env.DATABASE_URL);
    const life = await lifecycle(base, who, PAYMENTS, CONCURRENCY);
    const after = await jobTotals(bare);
    const indexesAfter = await indexReads(env.DATABASE_URL);
    const times = await Promise.all(
      QUEUES.map(async (queue) => (await json(`${bare}/bare/job-times/${queue}`)).body as JobTimes),
    );
    return {
      engine: api.ready.engine,
      bareRps,
      ...life,
      perQueue: QUEUES.map((q, i) => ({ queue: q, done: (after[q] ?? 0) - (before[q] ?? 0), ...times[i] })),
      indexes: indexesAfter.map((index) => {
        const old = indexesBefore.find((row) => row.name === index.name);
        return {
          name: index.name,
          scans: index.scans - (old?.scans ?? 0),
          read: index.read - (old?.read ?? 0),
        };
      }),
    };
  } finally {
    await worker?.stop();
    await api.stop();
  }
}

interface JobTimes {
  wait_ms: number | null;
  run_ms: number | null;
}

/** pg-boss's job indexes: scans and entries read so far (PostgreSQL only; none on PGlite). */
async function indexReads(url: string | undefined) {
  if (!url) return [];
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; scans: string; read: string }>(
      "select indexrelname as name, idx_scan as scans, idx_tup_read as read from pg_stat_user_indexes where schemaname = 'pgboss' and relname like 'job%'",
    );
    return rows.map((row) => ({ name: row.name, scans: Number(row.scans), read: Number(row.read) }));
  } finally {
    await client.end();
  }
}

/** Completed jobs per queue so far. */
async function jobTotals(bare: string): Promise<Record<string, number>> {
  const totals: Record<string, number> = {};
  for (const queue of QUEUES) totals[queue] = (await json(`${bare}/bare/jobs/${queue}`)).body.completed ?? 0;
  return totals;
}

const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
// PostgreSQL when a server is named (API-only process plus a worker process), else PGlite (one
// process): a fresh database either way.
const database = await freshDatabase(serverUrl, "bench_life");
let result: Awaited<ReturnType<typeof run>>;
try {
  result = await run(database.env, Boolean(serverUrl));
} finally {
  await database.drop();
}

const perSecond = result.paid / result.seconds;
console.log(
  `\nLifecycle on ${result.engine}: ${PAYMENTS} payments, ${CONCURRENCY} at a time, ${result.engine === "pglite" ? "one process (API and worker)" : "API-only process + worker process"}, ${os.cpus().length} CPUs\n`,
);
console.log("| measure | value |");
console.log("|---|---:|");
console.log(`| bare INSERT route (control), req/s | ${result.bareRps} |`);
console.log(`| payments paid | ${result.paid} of ${PAYMENTS} |`);
console.log(`| completed payments/s (create -> confirm -> paid) | ${perSecond.toFixed(1)} |`);
console.log(`| as a share of the bare INSERT | ${((100 * perSecond) / result.bareRps).toFixed(1)}% |`);
console.log(`| creates and confirms answered after | ${result.submitSeconds.toFixed(1)} s |`);
console.log(`| last payment paid after that | ${result.drainSeconds.toFixed(1)} s |`);
const ms = (value: number | null | undefined) => (value == null ? "-" : Number(value).toFixed(0));
console.log("\n| queue | jobs done | jobs/s | median wait, ms | median run, ms |");
console.log("|---|---:|---:|---:|---:|");
for (const { queue, done, wait_ms, run_ms } of result.perQueue) {
  console.log(
    `| ${queue} | ${done} | ${(done / result.seconds).toFixed(1)} | ${ms(wait_ms)} | ${ms(run_ms)} |`,
  );
}
const readIndexes = result.indexes.filter((index) => index.scans > 0);
if (readIndexes.length > 0) {
  console.log("\n| pg-boss index | scans | entries read | per scan |");
  console.log("|---|---:|---:|---:|");
  for (const { name, scans, read } of readIndexes) {
    console.log(`| ${name} | ${scans} | ${read} | ${(read / scans).toFixed(1)} |`);
  }
}
