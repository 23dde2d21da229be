// `npm run bench:idle`: what a process doing nothing costs. Starts the service as `npm start` does
// (package.json's start script: its environment settings and Node flags) and, as the control,
// as plain `node src/main.ts`, each on the embedded
// engine (a temporary DATA_DIR) and, when BENCH_DATABASE_URL or DATABASE_URL names a server, on a
// fresh PostgreSQL database next to it; waits for /health/ready, lets it settle, then samples its
// CPU time (/proc/<pid>/stat utime+stime) and resident memory (/proc/<pid>/status VmRSS). Then,
// so a quieter idle is never bought with slower jobs, times payments from create through confirm
// to `paid` end to end. Prints a Markdown table for docs/benchmarks.md (Linux only: /proc).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { cpuMsOf } from "./proc.ts";
import { median } from "./stats.ts";

const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 10);
const SAMPLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 10);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** CPU seconds the process has used so far (user + system). */
const cpuSeconds = (pid: number) => cpuMsOf(pid) / 1000;

function residentMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

async function json(url: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const response = await fetch(url, {
    method: init.method ?? "GET",
    headers: {
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? "GET"} ${url}: ${response.status} ${text}`);
  return JSON.parse(text);
}

async function waitReady(base: string, child: ChildProcess) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`src/main.ts exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/health/ready`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error("src/main.ts was not ready within two minutes");
}

/** Milliseconds from each payment's create to its `paid`, the sandbox's 4242 card, one at a time. */
async function paymentLifecycles(base: string): Promise<number[]> {
  const stamp = Date.now();
  const signup = await json(`${base}/auth/signup`, {
    method: "POST",
    body: {
      email: `idle${stamp}@example.com`,
      password: "benchmark password 1",
      username: `idle${stamp}`,
      first_name: "Idle",
      last_name: "Bench",
    },
  });
  const token = signup.token as string;
  const app = await json(`${base}/apps`, {
    method: "POST",
    token,
    body: { name: "Idle bench app", app_fee: 1.5, use_explorer: false },
  });
  const price = await json(`${base}/prices/${app.id}`, {
    method: "POST",
    token,
    body: { name: "Idle bench ticket", amount: 12.5, currency: "usd" },
  });
  const card = { type: "card", number: "4242424242424242", exp_month: 12, exp_year: 2030, cvc: "123" };
  const durations: number[] = [];
  for (let i = 0; i < PAYMENTS; i++) {
    const started = performance.now();
    const payment = await json(`${base}/payments/${app.id}`, {
      method: "POST",
      token,
      body: { price_id: price.id, payment_provider: "card" },
    });
    await json(`${base}/payments/${app.id}/${payment.id}/confirm`, {
      method: "POST",
      token,
      body: { payment_method: card },
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const read = await json(`${base}/payments/${app.id}/${payment.id}`, { token });
      if (read.status === "paid") break;
      if (Date.now() > deadline) throw new Error(`payment ${payment.id} stayed ${read.status}`);
      await sleep(10);
    }
    durations.push(performance.now() - started);
    // A pause between payments, so each starts from an idle worker (as a developer's would).
    await sleep(1000);
  }
  return durations;
}

/**
 * How the service is launched: `npm start`'s command (its leading NAME=value settings and the
 * flags before `src/main.ts`), or plain `node src/main.ts` for the control row.
 */
interface Launch {
  name: string;
  env: Record<string, string>;
  flags: string[];
}

function npmStartLaunch(): Launch {
  const scripts = JSON.parse(readFileSync("package.json", "utf8")).scripts as Record<string, string>;
  const words = scripts.start.split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0])) {
    const [name, value] = words.shift()!.split("=");
    env[name] = value;
  }
  if (words.shift() !== "node" || words.at(-1) !== "src/main.ts") {
    throw new Error(`bench/idle.ts cannot read the start script: ${scripts.start}`);
  }
  return { name: "npm start", env, flags: words.slice(0, -1) };
}

const LAUNCHES: Launch[] = [npmStartLaunch(), { name: "node src/main.ts (control)", env: {}, flags: [] }];

interface Result {
  label: string;
  cpuPercent: number;
  rssMb: number;
  lifecycleMs: number[];
}

async function benchEngine(label: string, env: Record<string, string>, launch: Launch): Promise<Result> {
  const port = await freePort();
  const child = spawn(process.execPath, [...launch.flags, "src/main.ts"], {
    env: { ...process.env, ...launch.env, ...env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitReady(base, child);
    await sleep(SETTLE_SECONDS * 1000);
    const pid = child.pid!;
    const cpuBefore = cpuSeconds(pid);
    const wallBefore = performance.now();
    const rss: number[] = [];
    for (let second = 0; second < SAMPLE_SECONDS; second++) {
      await sleep(1000);
      rss.push(residentMb(pid));
    }
    const cpuPercent = (100 * (cpuSeconds(pid) - cpuBefore)) / ((performance.now() - wallBefore) / 1000);
    const lifecycleMs = await paymentLifecycles(base);
    return { label: `${label}, ${launch.name}`, cpuPercent, rssMb: Math.max(...rss), lifecycleMs };
  } finally {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  }
}

// BENCH_ENGINES=postgres (or pglite) runs one engine only.
const engines = (process.env.BENCH_ENGINES ?? "pglite,postgres").split(",");
const results: Result[] = [];
for (const launch of LAUNCHES) {
  if (!engines.includes("pglite")) break;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-idle-"));
  try {
    results.push(await benchEngine("PGlite (embedded)", { DATA_DIR: dataDir, DATABASE_URL: "" }, launch));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
for (const launch of engines.includes("postgres") ? LAUNCHES : []) {
  if (!serverUrl) break;
  const name = `bench_idle_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const target = new URL(serverUrl);
  target.pathname = `/${name}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-idle-"));
  try {
    results.push(
      await benchEngine("PostgreSQL", { DATABASE_URL: target.toString(), DATA_DIR: dataDir }, launch),
    );
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
if (!serverUrl && engines.includes("postgres")) {
  console.log("(set BENCH_DATABASE_URL=postgres://… to measure PostgreSQL too)");
}

console.log(
  `\nidle: ${SETTLE_SECONDS} s settle, then ${SAMPLE_SECONDS} s sampled; ${PAYMENTS} payments one at a time; ` +
    `${os.cpus().length} CPUs, Node ${process.version}\n`,
);
console.log(
  "| engine | idle CPU, % of a core | resident MB (peak) | create -> paid, median ms | slowest ms |",
);
console.log("|---|---:|---:|---:|---:|");
for (const { label, cpuPercent, rssMb, lifecycleMs } of results) {
  console.log(
    `| ${label} | ${cpuPercent.toFixed(2)} | ${Math.round(rssMb)} | ${Math.round(median(lifecycleMs))} | ${Math.round(Math.max(...lifecycleMs))} |`,
  );
}
console.log(
  `\nload average ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(", ")}`,
);
