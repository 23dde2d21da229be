// `npm run bench`: autocannon on loopback against the application and a bare Fastify route on the
// same database, on the embedded engine and (when BENCH_DATABASE_URL or DATABASE_URL names a
// server) on PostgreSQL, in one run. Prints a Markdown table for docs/benchmarks.md.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { pacedLoad } from "./paced.ts";
import { freshDatabase, startChild } from "./processes.ts";
import { median } from "./stats.ts";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
// BENCH_TARGET_ROUNDS=N: after the table, N more pairs of windows for each of issue 28's targets
// (the GET by id beside the bare PK SELECT, the create beside the bare INSERT), who goes first
// alternating, and each target's share as the median of its pairs: one pair of windows read
// alone moves by a tenth from run to run on this machine.
const TARGET_ROUNDS = Number(process.env.BENCH_TARGET_ROUNDS ?? 0);

interface Started {
  app: string;
  bare: string;
  engine: string;
  stop(): Promise<void>;
}

async function startServer(env: Record<string, string>, separateWorker: boolean): Promise<Started> {
  // With a separate worker the API process runs no jobs and a second process runs only them.
  // BENCH_WORKER=off runs no worker at all: a diagnostic of the create path alone, never a result.
  const noWorker = separateWorker || process.env.BENCH_WORKER === "off";
  const server = await startChild<{ app: number; bare: number; engine: string }>("bench/server.ts", {
    ...env,
    RUN_WORKER: noWorker ? "false" : "true",
  });
  const worker = separateWorker ? await startChild("bench/worker.ts", env) : undefined;
  return {
    app: `http://127.0.0.1:${server.ready.app}`,
    bare: `http://127.0.0.1:${server.ready.bare}`,
    engine: server.ready.engine,
    stop: async () => {
      await worker?.stop();
      await server.stop();
    },
  };
}

async function json(url: string, init: RequestInit & { body?: string } = {}): Promise<any> {
  const response = await fetch(url, {
    ...init,
    headers: { "content-type": "application/json", ...init.headers },
  });
  if (!response.ok)
    throw new Error(`${init.method ?? "GET"} ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

interface Load {
  method?: "GET" | "POST";
  body?: string;
  /** Requests per second for the whole run; absent means as fast as it goes. */
  rate?: number;
}

async function measure(title: string, url: string, headers: Record<string, string> = {}, load: Load = {}) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: load.body ? { ...headers, "content-type": "application/json" } : headers,
    method: load.method ?? "GET",
    body: load.body,
    overallRate: load.rate,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${title}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  return {
    title,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

/** A constant-rate load (bench/paced.ts); the rate comes from `load.rate`. */
async function measurePaced(title: string, url: string, headers: Record<string, string>, load: Load) {
  const result = await pacedLoad({
    url,
    method: load.method ?? "GET",
    headers: load.body ? { ...headers, "content-type": "application/json" } : headers,
    body: load.body,
    rate: load.rate!,
    seconds: DURATION,
    connections: CONNECTIONS,
  });
  if (result.non2xx > 0) throw new Error(`${title}: ${result.non2xx} non-2xx answers`);
  return { title, rps: result.rps, p50: result.p50, p99: result.p99 };
}

/** TARGET_ROUNDS pairs of a control's window and a route's, alternating who goes first. */
async function alternate(
  title: string,
  target: number,
  control: () => Promise<{ rps: number }>,
  route: () => Promise<{ rps: number }>,
) {
  const shares: number[] = [];
  for (let round = 0; round < TARGET_ROUNDS; round++) {
    let bare: number;
    let measured: number;
    if (round % 2 === 0) {
      bare = (await control()).rps;
      measured = (await route()).rps;
    } else {
      measured = (await route()).rps;
      bare = (await control()).rps;
    }
    shares.push(Math.round((100 * measured) / bare));
  }
  return { title, target, shares, median: Math.round(median(shares)) };
}

/** Waits until the outbox is empty (the relay caught up with the last row), then two seconds. */
async function settle(server: Started) {
  for (let i = 0; i < 40 && (await json(`${server.bare}/bare/outbox`)).waiting > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await new Promise((resolve) => setTimeout(resolve, 2000));
}

async function benchEngine(label: string, env: Record<string, string>, separateWorker = false) {
  const server = await startServer(env, separateWorker);
  try {
    const signup = await json(`${server.app}/auth/signup`, {
      method: "POST",
      body: JSON.stringify({
        email: `bench${Date.now()}@example.com`,
        password: "benchmark password 1",
        username: `bench${Date.now()}`,
        first_name: "Bench",
        last_name: "Mark",
      }),
    });
    const auth = { authorization: `Bearer ${signup.token}` };
    const app = await json(`${server.app}/apps`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ name: "Bench app", app_fee: 1.5, use_explorer: false }),
    });
    // Warm-up, so JIT and connection pools are settled before measuring.
    await autocannon({
      url: `${server.app}/apps/${app.id}`,
      connections: CONNECTIONS,
      duration: 2,
      headers: auth,
    });
    const price = await json(`${server.app}/prices/${app.id}`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ name: "Bench ticket", amount: 12.5, currency: "usd" }),
    });
    const create = {
      method: "POST" as const,
      body: JSON.stringify({ price_id: price.id, payment_provider: "card" }),
    };
    // The payment the GET by id reads (issue 28's read target: 80% of the bare PK SELECT).
    const payment = await json(`${server.app}/payments/${app.id}`, { ...create, headers: auth });
    const reads = [
      await measure("bare route, one PK SELECT", `${server.bare}/bare/apps/${app.id}`),
      await measure("GET /users/me", `${server.app}/users/me`, auth),
      await measure("GET /apps/{app_id}", `${server.app}/apps/${app.id}`, auth),
      await measure(
        "GET /payments/{app_id}/{payment_id}",
        `${server.app}/payments/${app.id}/${payment.id}`,
        auth,
      ),
    ];
    const bareInsert = await measure(
      "bare route, one INSERT",
      `${server.bare}/bare/inserts`,
      {},
      { method: "POST", body: "{}" },
    );
    // The control for the paced row below: the bare INSERT at 70% of its own peak, the same way.
    // Whatever tail it has is the machine's (the database, the kernel, the neighbours), not ours.
    await settle(server);
    const bareSteady = await measurePaced(
      "bare route, one INSERT, at 70% of its peak, paced",
      `${server.bare}/bare/inserts`,
      {},
      { method: "POST", body: "{}", rate: Math.max(1, Math.round(bareInsert.rps * 0.7)) },
    );
    const peak = await measure(
      "POST /payments/{app_id} (peak)",
      `${server.app}/payments/${app.id}`,
      auth,
      create,
    );
    const rate = Math.max(1, Math.round(peak.rps * 0.7));
    // A row at a steady rate starts from a server that has finished the full-load row before it
    // (its last requests answered, its outbox relayed), not in the middle of that row's tail.
    await settle(server);
    const steady = await measurePaced(
      "POST /payments/{app_id} at 70% of peak, paced",
      `${server.app}/payments/${app.id}`,
      auth,
      { ...create, rate },
    );
    // The same rate through autocannon's overallRate, which sends each second's budget in a burst
    // (bench/paced.ts): kept beside the paced row so the two can be compared.
    const bursts = await measure(
      "POST /payments/{app_id} at 70% of peak, per-second bursts",
      `${server.app}/payments/${app.id}`,
      auth,
      { ...create, rate },
    );
    const targets = [];
    if (TARGET_ROUNDS > 0) {
      const byId = `${server.app}/payments/${app.id}/${payment.id}`;
      targets.push(
        await alternate(
          "GET /payments/{app_id}/{payment_id}, share of the bare PK SELECT",
          80,
          () => measure("control", `${server.bare}/bare/apps/${app.id}`),
          () => measure("route", byId, auth),
        ),
        await alternate(
          "POST /payments/{app_id} (peak), share of the bare INSERT",
          35,
          async () => {
            await settle(server);
            return measure("control", `${server.bare}/bare/inserts`, {}, { method: "POST", body: "{}" });
          },
          async () => {
            await settle(server);
            return measure("route", `${server.app}/payments/${app.id}`, auth, create);
          },
        ),
      );
    }
    return { label, rows: reads, writes: [bareInsert, bareSteady, peak, steady, bursts], targets };
  } finally {
    await server.stop();
  }
}

// BENCH_ENGINES=postgres (or pglite) runs one engine only, for quicker iterations.
const engines = (process.env.BENCH_ENGINES ?? "pglite,postgres").split(",");
const results = [];
if (engines.includes("pglite")) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-"));
  try {
    results.push(await benchEngine("PGlite (embedded)", { DATA_DIR: dataDir, DATABASE_URL: "" }));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
if (serverUrl && engines.includes("postgres")) {
  const database = await freshDatabase(serverUrl, "bench");
  try {
    // BENCH_WORKER=separate runs the job worker in its own process (docs/benchmarks.md).
    const separate = process.env.BENCH_WORKER === "separate";
    const title = separate ? "PostgreSQL, separate worker" : "PostgreSQL";
    results.push(await benchEngine(title, database.env, separate));
  } finally {
    await database.drop();
  }
} else {
  console.log("(set BENCH_DATABASE_URL=postgres://… to benchmark PostgreSQL too)");
}

console.log(
  `\n${CONNECTIONS} connections, ${DURATION} s per row, ${os.cpus().length} CPUs, Node ${process.version}\n`,
);
console.log("| engine | target | req/s | p50 ms | p99 ms | % of bare |");
console.log("|---|---|---:|---:|---:|---:|");
for (const { label, rows, writes } of results) {
  for (const group of [rows, writes]) {
    const bare = group[0].rps;
    for (const row of group) {
      const share = Math.round((100 * row.rps) / bare);
      console.log(`| ${label} | ${row.title} | ${row.rps} | ${row.p50} | ${row.p99} | ${share}% |`);
    }
  }
}
for (const { label, targets } of results) {
  if (targets.length === 0) continue;
  console.log(`\n${label}, ${TARGET_ROUNDS} alternating pairs of windows per target:\n`);
  console.log("| target | share, each pair | share, median | target |");
  console.log("|---|---|---:|---:|");
  for (const { title, shares, median, target } of targets) {
    console.log(
      `| ${title} | ${shares.map((share) => `${share}%`).join(", ")} | **${median}%** | ${target}% |`,
    );
  }
}
console.log(
  `\nload average ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(", ")}`,
);
