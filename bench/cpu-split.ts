// Where a read's CPU goes, by process: `npm run bench:cpu-split` starts bench/server.ts on a fresh
// database (BENCH_DATABASE_URL, else PGlite), no job worker, makes a tenant and a payment, then
// loads four reads in turn, BENCH_CPU_SPLIT_ROUNDS times (default 4), 5 s each at 32 connections:
// the bare PK SELECT (`npm run bench`'s control), the same with its answer padded to the GET by
// id's size (what the bytes alone cost), `GET /apps/{app_id}` and the GET by id. For each
// it prints the CPU a request spent in the load generator (autocannon, this process), in the
// server's process and in PostgreSQL's (Linux's /proc; on PGlite the database's work is the
// server's), and the bytes an answer took on the wire. `npm run bench:cpu-split -- writes` loads
// the writes instead: `npm run bench`'s bare INSERT and the create (`POST /payments/{app_id}`).
// On a machine the three share, a route's rate follows the sum: this says which part of a gap to
// the control is whose. The first round warms up (V8's compilers, the pool) and is left out of the
// medians.
import autocannon from "autocannon";
import { json, tenant } from "./journey.ts";
import { cpuMsOf, databaseCpuMs, databaseCpuSince } from "./proc.ts";
import { freshDatabase, startChild } from "./processes.ts";

const ROUNDS = Number(process.env.BENCH_CPU_SPLIT_ROUNDS ?? 4);
const WRITES = process.argv[2] === "writes";

const database = await freshDatabase(process.env.BENCH_DATABASE_URL, "bench_split");
const server = await startChild<{ app: number; bare: number }>("bench/server.ts", {
  ...database.env,
  RUN_WORKER: "false",
});
try {
  const base = `http://127.0.0.1:${server.ready.app}`;
  const who = await tenant(base, "split");
  const { body: payment } = await json(`${base}/payments/${who.appId}`, {
    method: "POST",
    headers: who.auth,
    body: { price_id: who.priceId, payment_provider: "card" },
  });
  type Load = { url: string; method?: "POST"; body?: string };
  const read = (url: string): Load => ({ url });
  const create = JSON.stringify({ price_id: who.priceId, payment_provider: "card" });
  const routes: Record<string, Load> = WRITES
    ? {
        "bare route, one INSERT": {
          url: `http://127.0.0.1:${server.ready.bare}/bare/inserts`,
          method: "POST",
        },
        "POST /payments/{app_id}": { url: `${base}/payments/${who.appId}`, method: "POST", body: create },
      }
    : {
        "bare route, one PK SELECT": read(`http://127.0.0.1:${server.ready.bare}/bare/apps/${who.appId}`),
        "bare route, answer padded to the GET by id's size": read(
          `http://127.0.0.1:${server.ready.bare}/bare/padded/${who.appId}`,
        ),
        "GET /apps/{app_id}": read(`${base}/apps/${who.appId}`),
        "GET /payments/{app_id}/{payment_id}": read(`${base}/payments/${who.appId}/${payment.id}`),
      };
  const windows = new Map<
    string,
    { rate: number; client: number; server: number; database: number; bytes: number }[]
  >();
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [name, load] of Object.entries(routes)) {
      const client = process.cpuUsage();
      const serverMs = cpuMsOf(server.pid);
      const databaseMs = databaseCpuMs();
      const headers = { ...who.auth, ...(load.body ? { "content-type": "application/json" } : {}) };
      const result = await autocannon({ ...load, connections: 32, duration: 5, headers });
      const used = process.cpuUsage(client);
      const n = result.requests.total;
      if (round === 0) continue;
      const seen = windows.get(name) ?? [];
      seen.push({
        rate: result.requests.average,
        client: (used.user + used.system) / 1000 / n,
        server: (cpuMsOf(server.pid) - serverMs) / n,
        database: databaseCpuSince(databaseMs) / n,
        bytes: result.throughput.total / n,
      });
      windows.set(name, seen);
    }
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(`\n${ROUNDS} rounds of 5 s windows at 32 connections, medians; CPU in ms a request\n`);
  console.log("| request | req/s | load generator | server | PostgreSQL | all three | bytes an answer |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const [name, seen] of windows) {
    const of = (key: keyof (typeof seen)[number]) => median(seen.map((w) => w[key]));
    const all = median(seen.map((w) => w.client + w.server + w.database));
    console.log(
      `| ${name} | ${of("rate").toFixed(0)} | ${of("client").toFixed(3)} | ${of("server").toFixed(3)} | ${of("database").toFixed(3)} | ${all.toFixed(3)} | ${of("bytes").toFixed(0)} |`,
    );
  }
} finally {
  await server.stop();
  await database.drop();
}
