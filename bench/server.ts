// The server side of the benchmark: the whole application on one port and, in the same process on
// the same database, a bare Fastify route doing one primary-key SELECT on another port: the
// baseline the application's overhead is measured against.
import Fastify from "fastify";
import { buildApplication } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { createLogger } from "../src/platform/log.ts";

const config = loadConfig({ ...process.env, PORT: "0", LOG_LEVEL: "warn" });
const logger = createLogger("warn");
const application = await buildApplication({ config, logger });
await application.start();
await application.app.listen({ port: 0, host: "127.0.0.1" });

const database = application.deps.database;
const selectApp = "select id, name, type, created_at from apps where id = $1";
// The baselines go unnamed on PostgreSQL, parsed and planned on every run as a plain `pool.query`
// was before the service's pool prepared repeated statements: the yardstick every earlier figure in
// docs/benchmarks.md was read against (a prepared one: BENCH_PREPARED_BASELINE=true).
const baseline = (text: string, values: unknown[]) =>
  process.env.BENCH_PREPARED_BASELINE === "true" ? { text, values } : { text, values, name: "" };
const bare = Fastify();
bare.get<{ Params: { id: string } }>("/bare/apps/:id", async (request, reply) => {
  const result = database.pool
    ? await database.pool.query(baseline(selectApp, [request.params.id]))
    : await database.pglite!.query(selectApp, [request.params.id]);
  if (result.rows.length === 0) return reply.code(404).send({ error: "not found" });
  return result.rows[0];
});
// The same read with its answer padded to about the GET by id's size (2 kB on the wire): what an
// answer's bytes alone cost, apart from the route's own work (bench:cpu-split).
bare.get<{ Params: { id: string } }>("/bare/padded/:id", async (request, reply) => {
  const result = database.pool
    ? await database.pool.query(baseline(selectApp, [request.params.id]))
    : await database.pglite!.query(selectApp, [request.params.id]);
  if (result.rows.length === 0) return reply.code(404).send({ error: "not found" });
  return { ...result.rows[0], padding: "x".repeat(1850) };
});
// The write baseline: one durable INSERT of a row about the size of a payment's key columns.
const createBench =
  "create table if not exists bench_inserts (id text primary key, body jsonb not null, created_at timestamptz not null default now())";
await (database.pool ? database.pool.query(createBench) : database.pglite!.query(createBench));
let counter = 0;
bare.post("/bare/inserts", async (_request, reply) => {
  const insert = "insert into bench_inserts (id, body) values ($1, $2)";
  const values = [`b_${process.pid}_${++counter}`, JSON.stringify({ amount: "1250", currency: "usd" })];
  await (database.pool
    ? database.pool.query(baseline(insert, values))
    : database.pglite!.query(insert, values));
  return reply.code(201).send({ ok: true });
});
// The job backlog of one queue, so the runner can tell whether the worker kept up.
// Jobs still in the outbox (not yet relayed into pg-boss) count as created.
const jobStates = `select state::text, count(*)::int as count from pgboss.job where name = $1 group by state
  union all select 'created', count(*)::int from job_outbox where name = $1`;
bare.get<{ Params: { name: string } }>("/bare/jobs/:name", async (request) => {
  const result = database.pool
    ? await database.pool.query(jobStates, [request.params.name])
    : await database.pglite!.query<{ state: string; count: number }>(jobStates, [request.params.name]);
  const counts: Record<string, number> = {};
  for (const row of result.rows) counts[row.state] = (counts[row.state] ?? 0) + row.count;
  return counts;
});
// Where a queue's jobs spent their time: waiting to be fetched (created -> started) and running
// (started -> completed), medians over the completed jobs, and the index reads of pg-boss's fetch.
const jobTimes = `select percentile_cont(0.5) within group (order by extract(epoch from started_on - created_on)) * 1000 as wait_ms,
    percentile_cont(0.5) within group (order by extract(epoch from completed_on - started_on)) * 1000 as run_ms
  from pgboss.job where name = $1 and state = 'completed'`;
bare.get<{ Params: { name: string } }>("/bare/job-times/:name", async (request) => {
  const result = database.pool
    ? await database.pool.query(jobTimes, [request.params.name])
    : await database.pglite!.query(jobTimes, [request.params.name]);
  return result.rows[0];
});
// Jobs written but not yet relayed into pg-boss, so the runner can let a row settle.
bare.get("/bare/outbox", async () => {
  const count = "select count(*)::int as waiting from job_outbox";
  const result = database.pool ? await database.pool.query(count) : await database.pglite!.query(count);
  return result.rows[0];
});
await bare.listen({ port: 0, host: "127.0.0.1" });

const port = (server: { server: { address(): unknown } }) =>
  (server.server.address() as { port: number }).port;
process.stdout.write(
  `${JSON.stringify({ ready: true, app: port(application.app), bare: port(bare), engine: database.engine })}\n`,
);

process.once("SIGTERM", async () => {
  await bare.close();
  await application.close();
  process.exit(0);
});
