// `npm run bench`: autocannon on loopback against the application and a bare Fastify route on the
// same database, on the embedded engine and (when BENCH_DATABASE_URL or DATABASE_URL names a
// server) on PostgreSQL, in one run. Prints a Markdown table for docs/benchmarks.md.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import pg from "pg";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

interface Started {
  app: string;
  bare: string;
  engine: string;
  stop(): Promise<void>;
}

async function startServer(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ["bench/server.ts"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout });
  const ready = await new Promise<{ app: number; bare: number; engine: string }>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`bench server exited with ${code}`)));
    lines.on("line", (line) => {
      if (line.startsWith('{"ready"')) resolve(JSON.parse(line));
    });
  });
  return {
    app: `http://127.0.0.1:${ready.app}`,
    bare: `http://127.0.0.1:${ready.bare}`,
    engine: ready.engine,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
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

async function benchEngine(label: string, env: Record<string, string>) {
  const server = await startServer(env);
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
    const reads = [
      await measure("bare route, one PK SELECT", `${server.bare}/bare/apps/${app.id}`),
      await measure("GET /users/me", `${server.app}/users/me`, auth),
      await measure("GET /apps/{app_id}", `${server.app}/apps/${app.id}`, auth),
    ];
    const price = await json(`${server.app}/prices/${app.id}`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ name: "Bench ticket", amount: 12.5, currency: "usd" }),
    });
    const create = {
      method: "POST" as const,
      body: JSON.stringify({ price_id: price.id, payment_provider: "card" }),
    };
    const bareInsert = await measure(
      "bare route, one INSERT",
      `${server.bare}/bare/inserts`,
      {},
      { method: "POST", body: "{}" },
    );
    const peak = await measure(
      "POST /payments/{app_id} (peak)",
      `${server.app}/payments/${app.id}`,
      auth,
      create,
    );
    const steady = await measure(
      "POST /payments/{app_id} at 70% of peak",
      `${server.app}/payments/${app.id}`,
      auth,
      { ...create, rate: Math.max(1, Math.round(peak.rps * 0.7)) },
    );
    return { label, rows: reads, writes: [bareInsert, peak, steady] };
  } finally {
    await server.stop();
  }
}

const results = [];
const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-"));
try {
  results.push(await benchEngine("PGlite (embedded)", { DATA_DIR: dataDir, DATABASE_URL: "" }));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
if (serverUrl) {
  const name = `bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const target = new URL(serverUrl);
  target.pathname = `/${name}`;
  try {
    results.push(await benchEngine("PostgreSQL", { DATABASE_URL: target.toString() }));
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
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
