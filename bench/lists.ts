// `npm run bench:lists`: how `GET /payments/{app_id}` holds up as an app's payments grow, on
// PostgreSQL (BENCH_DATABASE_URL or DATABASE_URL; a database of its own is created and dropped).
// The payments are copies of one made through the API, inserted set-based (bench/seed-payments.ts),
// spread over statuses, two prices, one email each and a thousand amounts, so that each of the
// list's filters (src/modules/payments/search.ts) is measured on a realistic share of the list.
// Prints a Markdown table for docs/benchmarks.md. BENCH_KEEP_DATABASE=true keeps the database (its
// name printed) for EXPLAIN afterwards. BENCH_LIST_ONLY (a regular expression) measures only the
// rows whose title it matches, for an A/B run of a few (page 1 is always measured, as the control).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import pg from "pg";
import { clonePayments } from "./seed-payments.ts";

const DURATION = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SIZES = (process.env.BENCH_LIST_SIZES ?? "1000,1000000").split(",").map(Number);
const PAGE = 20;
const DEPTH = 20;
const ONLY = process.env.BENCH_LIST_ONLY ? new RegExp(process.env.BENCH_LIST_ONLY) : undefined;

const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
if (!baseUrl) {
  console.error("bench:lists needs PostgreSQL: set BENCH_DATABASE_URL (or DATABASE_URL)");
  process.exit(2);
}
const name = `bench_lists_${randomBytes(4).toString("hex")}`;
const admin = new pg.Client({ connectionString: baseUrl });
await admin.connect();
await admin.query(`create database ${name}`);
const target = new URL(baseUrl);
target.pathname = `/${name}`;

const child = spawn(process.execPath, ["bench/server.ts"], {
  env: { ...process.env, DATABASE_URL: target.toString(), RUN_WORKER: "false" },
  stdio: ["ignore", "pipe", "inherit"],
});
const ready = await new Promise<{ app: number }>((resolve, reject) => {
  child.once("exit", (code) => reject(new Error(`bench/server.ts exited with ${code}`)));
  createInterface({ input: child.stdout }).on("line", (line) => {
    if (line.startsWith('{"ready"')) resolve(JSON.parse(line));
  });
});
const server = `http://127.0.0.1:${ready.app}`;
const db = new pg.Client({ connectionString: target.toString() });
await db.connect();

async function json(
  path: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<any> {
  const response = await fetch(`${server}${path}`, {
    method: init.method ?? "GET",
    headers: {
      "content-type": "application/json",
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!response.ok)
    throw new Error(`${init.method ?? "GET"} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function measure(title: string, path: string, token: string) {
  const result = await autocannon({
    url: `${server}${path}`,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: { authorization: `Bearer ${token}` },
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${title}: ${result.non2xx} non-2xx answers`);
  return { title, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const rows: { title: string; rps: number; p50: number; p99: number }[] = [];
try {
  const stamp = Date.now();
  const signup = await json("/auth/signup", {
    method: "POST",
    body: {
      email: `lists${stamp}@example.com`,
      password: "benchmark password 1",
      username: `lists${stamp}`,
      first_name: "Bench",
      last_name: "Lists",
    },
  });
  const token: string = signup.token;
  const app = await json("/apps", {
    method: "POST",
    token,
    body: { name: "Lists", app_fee: 0, use_explorer: false },
  });
  const price = await json(`/prices/${app.id}`, {
    method: "POST",
    token,
    body: { name: "Ticket", amount: 12.5, currency: "usd" },
  });
  const rarePrice = await json(`/prices/${app.id}`, {
    method: "POST",
    token,
    body: { name: "Backstage pass", amount: 40, currency: "usd" },
  });
  const template = await json(`/payments/${app.id}`, {
    method: "POST",
    token,
    body: { price_id: price.id, payment_provider: "card" },
  });
  const newest = Date.parse(template.created_at);
  // Copies are one second apart: this window holds copies 300 to 600 at every size.
  const window = `created[gte]=${new Date(newest - 600_000).toISOString()}&created[lte]=${new Date(newest - 300_000).toISOString()}`;
  let held = 1;
  for (const size of SIZES) {
    const started = Date.now();
    // Copies are numbered on from the last seeding, so each size adds only what it lacks.
    await clonePayments(db, template.id, size - held, held, { rarePriceId: rarePrice.id });
    held = size;
    console.error(`seeded ${size} payments in ${Math.round((Date.now() - started) / 1000)} s`);
    // The record PAGE x DEPTH down the list (the template is the newest, its copies older in turn).
    const [{ id: deep }] = (
      await db.query(
        "select id from payments where app_id = $1 order by created_at desc, id desc offset $2 limit 1",
        [app.id, PAGE * DEPTH - 1],
      )
    ).rows;
    // Copy 777's id, to the sixth hex digit: one copy in sixteen million shares it.
    const [{ id: copy }] = (
      await db.query("select id from payments where shopper_email = 'shopper777@example.com'")
    ).rows;
    const filters: [title: string, query: string][] = [
      ["status=refunded (5%)", "status=refunded"],
      ["status=hold (0.1%)", "status=hold"],
      ["price_id (1%)", `price_id=${rarePrice.id}`],
      ["id_prefix", `id_prefix=${copy.slice(0, 10)}`],
      ["shopper_email (one)", "shopper_email=shopper777@"],
      // Four characters: PostgreSQL estimates a short text's matches by its length alone.
      ["shopper_email, four characters (one)", "shopper_email=r77@"],
      ["amount range (0.2%)", "currency=usd&amount[gte]=15.00&amount[lte]=15.01"],
      ["amount range, one dollar (10%)", "currency=usd&amount[gte]=15.00&amount[lte]=15.99"],
      ["created range (300 rows)", window],
      ["status=refunded and created range", `status=refunded&${window}`],
    ];
    const label = size.toLocaleString("en");
    // Warm-up: the first requests pay for plans and caches.
    await autocannon({
      url: `${server}/payments/${app.id}`,
      connections: CONNECTIONS,
      duration: 1,
      headers: { authorization: `Bearer ${token}` },
    });
    rows.push(await measure(`${label} payments, page 1`, `/payments/${app.id}?limit=${PAGE}`, token));
    const others: [title: string, query: string][] = [
      [`${DEPTH + 1}st page by cursor`, `starting_after=${deep}`],
      [`${DEPTH + 1}st page by number`, `page=${DEPTH + 1}`],
      ...filters,
    ];
    for (const [title, query] of others) {
      if (ONLY && !ONLY.test(title)) continue;
      rows.push(
        await measure(`${label} payments, ${title}`, `/payments/${app.id}?limit=${PAGE}&${query}`, token),
      );
    }
  }
} finally {
  await db.end();
  await new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
  if (process.env.BENCH_KEEP_DATABASE === "true") console.error(`kept database ${name}`);
  else await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}

console.log(`\n${CONNECTIONS} connections, ${DURATION} s per row, PostgreSQL\n`);
console.log("| Request | requests/s | p50 ms | p99 ms |");
console.log("|---|---:|---:|---:|");
for (const row of rows) console.log(`| ${row.title} | ${Math.round(row.rps)} | ${row.p50} | ${row.p99} |`);
