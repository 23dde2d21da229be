// `npm run bench:job-fetch` (PostgreSQL only): what pg-boss's fetch costs under a backlog. Starts
// an API-only process on a fresh database, subscribes a webhook endpoint (a receiver in this
// process) to `payment.pending` and creates payments as fast as it answers for BENCH_SECONDS (each
// enqueues one `webhooks.deliver` job; no worker runs, so they pile up),
// then shows the fetch's plan on that backlog (EXPLAIN (ANALYZE, BUFFERS), rolled back), starts a
// worker process and reads pg_stat_user_indexes while the worker drains the backlog: how many
// index entries each fetch read (idx_tup_read / idx_scan) on pg-boss's job indexes.
import { createServer } from "node:http";
import autocannon from "autocannon";
import pg from "pg";
import { startChild } from "./processes.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const QUEUE = "webhooks.deliver";
const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
if (!serverUrl) throw new Error("bench/job-fetch.ts needs BENCH_DATABASE_URL (a PostgreSQL server)");

async function json(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as any;
}

/** The statement pg-boss's worker runs to fetch a batch, as pg-boss builds it for this queue. */
async function fetchStatement(): Promise<{ text: string; values: unknown[] }> {
  // Not among the package's exports: loaded by its path, for this measurement only.
  const plans = (await import(new URL("../node_modules/pg-boss/dist/plans.js", import.meta.url).href)) as {
    fetchNextJob(options: object): { text: string; values?: unknown[] };
  };
  const built = plans.fetchNextJob({ schema: "pgboss", table: "job_common", name: QUEUE, limit: 8 });
  return { text: built.text, values: built.values ?? [] };
}

async function indexReads(client: pg.Client) {
  const { rows } = await client.query<{ name: string; scans: string; read: string }>(
    "select indexrelname as name, idx_scan as scans, idx_tup_read as read from pg_stat_user_indexes where schemaname = 'pgboss' and relname = 'job_common'",
  );
  return new Map(rows.map((row) => [row.name, { scans: Number(row.scans), read: Number(row.read) }]));
}

async function backlog(client: pg.Client) {
  const { rows } = await client.query<{ state: string; count: number }>(
    "select state::text, count(*)::int as count from pgboss.job where name = $1 group by state",
    [QUEUE],
  );
  return Object.fromEntries(rows.map((row) => [row.state, row.count])) as Record<string, number>;
}

const name = `bench_fetch_${Date.now()}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`create database ${name}`);
const target = new URL(serverUrl);
target.pathname = `/${name}`;
const env = { DATABASE_URL: target.toString() };
const client = new pg.Client({ connectionString: target.toString() });
// The endpoint the deliveries go to once the worker runs: it answers every one at once.
const receiver = createServer((request, response) => {
  request.resume();
  request.on("end", () => response.writeHead(204).end());
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const receiverPort = (receiver.address() as { port: number }).port;
const hooksEnv = { WEBHOOKS_ALLOW_LOOPBACK: "true" };
const api = await startChild<{ app: number; bare: number }>("bench/server.ts", {
  ...env,
  ...hooksEnv,
  RUN_WORKER: "false",
});
let worker: Awaited<ReturnType<typeof startChild>> | undefined;
try {
  await client.connect();
  const base = `http://127.0.0.1:${api.ready.app}`;
  const stamp = Date.now();
  const session = await json(`${base}/auth/signup`, {
    email: `fetch${stamp}@example.com`,
    password: "benchmark password 1",
    username: `fetch${stamp}`,
    first_name: "Job",
    last_name: "Fetch",
  });
  const auth = { authorization: `Bearer ${session.token}` };
  const app = await json(`${base}/apps`, { name: "Fetch", app_fee: 1.5, use_explorer: false }, auth);
  const price = await json(
    `${base}/prices/${app.id}`,
    { name: "Ticket", amount: 12.5, currency: "usd" },
    auth,
  );
  await json(
    `${base}/webhooks/${app.id}`,
    { url: `http://127.0.0.1:${receiverPort}/hooks`, events: ["payment.pending"] },
    auth,
  );
  await autocannon({
    url: `${base}/payments/${app.id}`,
    method: "POST",
    body: JSON.stringify({ price_id: price.id, payment_provider: "card" }),
    headers: { ...auth, "content-type": "application/json" },
    connections: 32,
    duration: SECONDS,
  });
  // Let the API process's relay move the last outbox rows into pg-boss.
  while ((await client.query("select count(*)::int as n from job_outbox")).rows[0].n > 0) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const queued = await backlog(client);
  console.log(`\nBacklog: ${JSON.stringify(queued)} ${QUEUE} jobs\n`);
  const statement = await fetchStatement();
  if (process.env.BENCH_ANALYZE) await client.query("analyze pgboss.job_common");
  await client.query("begin");
  const plan = await client.query(`explain (analyze, buffers) ${statement.text}`, statement.values);
  await client.query("rollback");
  console.log("Fetch plan on the backlog (rolled back):\n");
  for (const row of plan.rows) console.log(`    ${row["QUERY PLAN"]}`);

  const before = await indexReads(client);
  const started = Date.now();
  worker = await startChild("bench/worker.ts", { ...env, ...hooksEnv });
  const total = queued.created ?? 0;
  while (Date.now() - started < 300_000) {
    const now = await backlog(client);
    if ((now.created ?? 0) + (now.retry ?? 0) + (now.active ?? 0) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const seconds = (Date.now() - started) / 1000;
  // Statistics reach pg_stat_user_indexes within a second of each transaction.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const after = await indexReads(client);
  console.log(`\nDrained ${total} jobs in ${seconds.toFixed(1)} s (worker start-up included)\n`);
  console.log("| pg-boss index | scans | entries read | per scan |");
  console.log("|---|---:|---:|---:|");
  for (const [index, now] of after) {
    const scans = now.scans - (before.get(index)?.scans ?? 0);
    const read = now.read - (before.get(index)?.read ?? 0);
    if (scans > 0) console.log(`| ${index} | ${scans} | ${read} | ${(read / scans).toFixed(1)} |`);
  }
} finally {
  await worker?.stop();
  await api.stop();
  receiver.close();
  await client.end().catch(() => {});
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
