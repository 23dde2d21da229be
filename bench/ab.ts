// `npm run bench:ab -- <ref>`: the working tree against any git ref on the same machine, run
// alternately so that the machine's drift (other work, thermal, caches) falls on both sides alike.
// The ref is checked out in a temporary git worktree; each round starts a fresh process of each side
// (bench/server.ts of its own checkout, API and worker in one process as `npm start` runs them), each
// on a fresh database: PostgreSQL when BENCH_DATABASE_URL names a server, else PGlite. Every measure
// is taken on both sides back to back; which side starts and goes first alternates by round.
// Prints every round's ratio (tree / ref) and, per measure, the median ratio with its spread, for
// the rate, the side's CPU a request and, on PostgreSQL, the database's CPU a request
// (docs/benchmarks.md). The same code against itself reads the fastest route at 0.85 to 1.07 on a
// 2-core machine (docs/benchmarks.md, "A list's role and app in one statement, and the A/B read
// against itself"): a ratio is read beside an A/A run of the same hour.
import os from "node:os";
import autocannon from "autocannon";
import { checkout, commitOf, removeCheckout } from "./checkout.ts";
import { countingEnv, fillPath, json, lifecycle, tenant } from "./journey.ts";
import { cpuMsOf, databaseCpuMs, databaseCpuSince, quiet } from "./proc.ts";
import { freshDatabase, startChild } from "./processes.ts";
import { startReceiver } from "./receiver.ts";
import { median } from "./stats.ts";

const SECONDS = Number(process.env.BENCH_AB_SECONDS ?? 5);
const ROUNDS = Math.max(3, Number(process.env.BENCH_AB_ROUNDS ?? 3));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const PAYMENTS = Number(process.env.BENCH_AB_PAYMENTS ?? 200);
const CONCURRENCY = 16;
// BENCH_AB_WORKER=off: no job worker in either process, so the windows measure the request paths
// alone (the lifecycle, which needs the worker, is left out). A diagnostic, as BENCH_WORKER=off is.
const WORKER = process.env.BENCH_AB_WORKER !== "off";
const ALL_MEASURES = [
  "lifecycle, paid/s",
  "lifecycle, paid and delivered/s",
  "GET /apps/{app_id}",
  "GET /payments/{app_id}/{payment_id}",
  "GET /payments/{app_id} (page 1)",
  "GET /checkout/{price_id}/payments/{payment_id}",
  "GET /checkout/{price_id}/quote",
  "GET /checkout/{price_id} (the page)",
  "GET /events/{app_id} (page 1)",
  "POST /payments/{app_id}",
] as const;
// BENCH_AB_PATHS: more GETs to measure, read with the tenant's credentials, comma-separated, the
// app's, the price's and the payment's ids written `{app_id}`, `{price_id}`, `{payment_id}`
// (`/prices/{app_id},/payments/{app_id}/{payment_id}/events`): a route without a measure of its own.
const PATHS = (process.env.BENCH_AB_PATHS ?? "").split(",").filter(Boolean);
type Measure = (typeof ALL_MEASURES)[number] | `GET ${string}`;
// BENCH_AB_MEASURES: a comma-separated list of parts of measure names ("POST,GET /apps") to run
// only those, for a quick look at one route across many refs.
const ONLY = process.env.BENCH_AB_MEASURES?.split(",").filter(Boolean);
// BENCH_AB_ENDPOINT=1 adds "lifecycle, paid and delivered/s": the same payments, each counted once
// its webhook deliveries are done too (taken from the same run as the paid figure).
const ENDPOINT = Boolean(process.env.BENCH_AB_ENDPOINT);
const MEASURES: Measure[] = ALL_MEASURES.filter(
  (measure) =>
    (WORKER || !measure.startsWith("lifecycle")) &&
    (ENDPOINT || !measure.includes("delivered")) &&
    // The delivered figure is taken in the paid figure's run: asking for it runs that one too.
    (!ONLY ||
      ONLY.some(
        (part) => measure.includes(part) || (part.includes("deliver") && measure.startsWith("lifecycle")),
      )),
);
// The paths go before the create, which stops the side it measured.
const createAt = MEASURES.indexOf("POST /payments/{app_id}");
MEASURES.splice(
  createAt === -1 ? MEASURES.length : createAt,
  0,
  ...PATHS.map((path): Measure => `GET ${path}`),
);
interface Figure {
  rate: number;
  p99?: number;
  /** CPU time the side's process spent per request (user + system), ms: less moved by the load. */
  cpuMs?: number;
  /** The same for every PostgreSQL process of the machine (PostgreSQL only): the database's share. */
  databaseCpuMs?: number;
}
type Figures = Record<Measure, Figure>;

const ref = process.argv[2];
if (!ref) {
  console.error("usage: npm run bench:ab -- <git ref>   (e.g. main, HEAD~3, 87f6045)");
  process.exit(2);
}
const sha = commitOf(ref);
const tree = process.cwd();

async function window(
  pid: number,
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Figure> {
  const databaseBefore = databaseCpuMs();
  const cpuBefore = cpuMsOf(pid);
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    method: body ? "POST" : "GET",
    headers: body ? { ...headers, "content-type": "application/json" } : headers,
    body,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  const requests = result.requests.total || 1;
  return {
    rate: result.requests.average,
    p99: result.latency.p99,
    cpuMs: (cpuMsOf(pid) - cpuBefore) / requests,
    databaseCpuMs: databaseBefore.size > 0 ? databaseCpuSince(databaseBefore) / requests : undefined,
  };
}

interface Side {
  pid: number;
  base: string;
  /** bench/server.ts's bare routes: the job backlog. */
  bare: string;
  who: Awaited<ReturnType<typeof tenant>>;
  paymentId: string;
  /** The payment's token: the hosted checkout page reads the payment with it, every 700 ms. */
  paymentToken: string;
  /** Its last lifecycle's payments a second, counted once their deliveries were done too. */
  delivered?: number;
  stop(): Promise<void>;
}

// BENCH_AB_ENDPOINT=1 (or https): where the sides' app endpoint sends its deliveries.
const receiver = process.env.BENCH_AB_ENDPOINT
  ? await startReceiver(process.env.BENCH_AB_ENDPOINT === "https")
  : undefined;

/** A fresh process of `cwd`'s code on a fresh database, with a tenant, an app and a price. */
async function startSide(cwd: string): Promise<Side> {
  const database = await freshDatabase(serverUrl, "bench_ab");
  const server = await startChild<{ app: number; bare: number }>(
    "bench/server.ts",
    {
      ...database.env,
      ...countingEnv(PAYMENTS),
      RUN_WORKER: String(WORKER),
      WEBHOOKS_ALLOW_LOOPBACK: "true",
      ...receiver?.env,
    },
    cwd,
  ).catch(async (error) => {
    await database.drop();
    throw error;
  });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await server.stop();
    await database.drop();
  };
  try {
    const base = `http://127.0.0.1:${server.ready.app}`;
    const who = await tenant(base, "ab");
    // BENCH_AB_ENDPOINT=1: the app has a webhook endpoint listening to every payment event, so each
    // create and move also writes a delivery and its job, and the worker delivers it (`receiver`).
    if (receiver) {
      await json(`${base}/webhooks/${who.appId}`, {
        method: "POST",
        headers: who.auth,
        body: { url: receiver.url, events: ["payment.*"] },
      });
    }
    const { body: payment } = await json(`${base}/payments/${who.appId}`, {
      method: "POST",
      headers: who.auth,
      body: { price_id: who.priceId, payment_provider: "card" },
    });
    // Twenty more, so that the list's first page is full without the lifecycle (BENCH_AB_WORKER=off).
    for (let i = 0; i < 20; i++) {
      await json(`${base}/payments/${who.appId}`, {
        method: "POST",
        headers: who.auth,
        body: { price_id: who.priceId, payment_provider: "card" },
      });
    }
    await autocannon({
      url: `${base}/apps/${who.appId}`,
      connections: CONNECTIONS,
      duration: 2,
      headers: who.auth,
    });
    const bare = `http://127.0.0.1:${server.ready.bare}`;
    return {
      pid: server.pid,
      base,
      bare,
      who,
      paymentId: payment.id,
      paymentToken: payment.payment_token,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Waits (up to a minute) until the side has no webhook delivery waiting or running. */
async function deliveriesDone(side: Side) {
  const { port } = new URL(side.base);
  for (let i = 0; i < 600; i++) {
    const { body } = await json(`${side.bare}/bare/jobs/webhooks.deliver`);
    const open = Object.entries(body as Record<string, number>)
      .filter(([state]) => state !== "completed" && state !== "failed" && state !== "cancelled")
      .reduce((sum, [, count]) => sum + count, 0);
    if (open === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  console.log(`the side on port ${port} still had deliveries under way after a minute`);
}

/** One measure on one side. */
async function measure(side: Side, what: Measure): Promise<Figure> {
  const { pid, base, who, paymentId, paymentToken } = side;
  const { auth, appId, priceId } = who;
  switch (what) {
    case "lifecycle, paid/s": {
      // Waits until every payment is paid; their webhook deliveries (BENCH_AB_ENDPOINT) may still
      // be under way, and would load the other side's measure: waited for, outside this figure.
      const life = await lifecycle(base, who, PAYMENTS, CONCURRENCY);
      const paidAt = performance.now();
      await deliveriesDone(side);
      side.delivered = life.paid / (life.seconds + (performance.now() - paidAt) / 1000);
      return { rate: life.paid / life.seconds };
    }
    case "lifecycle, paid and delivered/s":
      return { rate: side.delivered ?? Number.NaN };
    case "GET /apps/{app_id}":
      return window(pid, `${base}/apps/${appId}`, auth);
    case "GET /payments/{app_id}/{payment_id}":
      return window(pid, `${base}/payments/${appId}/${paymentId}`, auth);
    case "GET /payments/{app_id} (page 1)":
      return window(pid, `${base}/payments/${appId}`, auth);
    case "GET /checkout/{price_id}/payments/{payment_id}":
      return window(pid, `${base}/checkout/${priceId}/payments/${paymentId}`, {
        "x-payment-token": paymentToken,
      });
    case "GET /checkout/{price_id}/quote":
      return window(pid, `${base}/checkout/${priceId}/quote`, {});
    case "GET /checkout/{price_id} (the page)":
      return window(pid, `${base}/checkout/${priceId}`, {});
    // The event log an integrator polls to catch up: the payments' events, newest first.
    case "GET /events/{app_id} (page 1)":
      return window(pid, `${base}/events/${appId}`, auth);
    case "POST /payments/{app_id}":
      return window(
        pid,
        `${base}/payments/${appId}`,
        auth,
        JSON.stringify({ price_id: priceId, payment_provider: "card" }),
      );
    default:
      return window(
        pid,
        `${base}${fillPath(what.slice("GET ".length), { appId, priceId, paymentId })}`,
        auth,
      );
  }
}

const serverUrl = process.env.BENCH_DATABASE_URL;

const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(", ");

const loadAtStart = load();
const dir = checkout(sha, "bench-ab", !!process.env.BENCH_AB_KEEP);
const rounds: { ref: Figures; tree: Figures; load: string }[] = [];
let unsettled = 0;
try {
  for (let round = 0; round < ROUNDS; round++) {
    // Both processes run side by side and each measure's two windows follow each other, so the
    // machine's load drifts little between them; who goes first alternates from round to round.
    const order = round % 2 === 0 ? (["ref", "tree"] as const) : (["tree", "ref"] as const);
    console.log(`round ${round + 1}/${ROUNDS}, ${order[0]} first (load ${load()})`);
    // Started in that order too: which side is started second alternates with the rest.
    const started: Partial<Record<(typeof order)[number], Side>> = {};
    const figures = { ref: {} as Figures, tree: {} as Figures };
    try {
      for (const who of order) started[who] = await startSide(who === "ref" ? dir : tree);
      const sides = started as Record<(typeof order)[number], Side>;
      for (const what of MEASURES) {
        for (const who of order) {
          // A window that started without the machine quiet is counted, and said at the end.
          if (!(await quiet())) unsettled++;
          figures[who][what] = await measure(sides[who], what);
          // The create's jobs would load the other side's window: its process goes first.
          if (what === "POST /payments/{app_id}") await sides[who].stop();
        }
      }
    } finally {
      await started.ref?.stop();
      await started.tree?.stop();
    }
    rounds.push({ ...figures, load: load() });
  }
} finally {
  if (!process.env.BENCH_AB_KEEP) removeCheckout(dir);
}

const engine = serverUrl ? "PostgreSQL" : "PGlite";
console.log(
  `\nworking tree / ${ref} (${sha.slice(0, 7)}), ${engine}${WORKER ? "" : ", no job worker"}, ${ROUNDS} alternations, ${SECONDS} s windows at ${CONNECTIONS} connections${WORKER ? `, lifecycle ${PAYMENTS} payments ${CONCURRENCY} at a time` : ""}, ${os.cpus().length} CPUs, Node ${process.version}; load average ${loadAtStart} at start, ${load()} at end\n`,
);
console.log("| measure | ref, median | tree, median | ratio per round | ratio, median | spread (min-max) |");
console.log("|---|---:|---:|---|---:|---:|");
for (const measure of MEASURES) {
  const ratios = rounds.map((r) => r.tree[measure].rate / r.ref[measure].rate);
  const refRate = median(rounds.map((r) => r.ref[measure].rate));
  const treeRate = median(rounds.map((r) => r.tree[measure].rate));
  const unit = measure.startsWith("lifecycle") ? "/s" : " req/s";
  console.log(
    `| ${measure} | ${refRate.toFixed(1)}${unit} | ${treeRate.toFixed(1)}${unit} | ${ratios.map((x) => x.toFixed(2)).join(", ")} | **${median(ratios).toFixed(2)}** | ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)} |`,
  );
}
// Throughput on a shared machine moves with whatever else runs; the CPU time the process itself
// spent per request moves much less, so it is printed too (ratio below 1: the tree spends less).
console.log(
  "\n| measure | ref CPU ms/request | tree CPU ms/request | ratio per round | ratio, median | spread (min-max) |",
);
console.log("|---|---:|---:|---|---:|---:|");
for (const measure of MEASURES.filter((m) => !m.startsWith("lifecycle"))) {
  const ratios = rounds.map((r) => (r.tree[measure].cpuMs ?? 0) / (r.ref[measure].cpuMs ?? 1));
  const refCpu = median(rounds.map((r) => r.ref[measure].cpuMs ?? 0));
  const treeCpu = median(rounds.map((r) => r.tree[measure].cpuMs ?? 0));
  console.log(
    `| ${measure} | ${refCpu.toFixed(2)} | ${treeCpu.toFixed(2)} | ${ratios.map((x) => x.toFixed(2)).join(", ")} | **${median(ratios).toFixed(2)}** | ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)} |`,
  );
}
if (serverUrl) {
  console.log(
    "\n| measure | ref PostgreSQL CPU ms/request | tree PostgreSQL CPU ms/request | ratio per round | ratio, median | spread (min-max) |",
  );
  console.log("|---|---:|---:|---|---:|---:|");
  for (const measure of MEASURES.filter((m) => !m.startsWith("lifecycle"))) {
    const spent = (side: "ref" | "tree", r: (typeof rounds)[number]) => r[side][measure].databaseCpuMs ?? 0;
    const ratios = rounds.map((r) => spent("tree", r) / (spent("ref", r) || 1));
    console.log(
      `| ${measure} | ${median(rounds.map((r) => spent("ref", r))).toFixed(3)} | ${median(rounds.map((r) => spent("tree", r))).toFixed(3)} | ${ratios.map((x) => x.toFixed(2)).join(", ")} | **${median(ratios).toFixed(2)}** | ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)} |`,
    );
  }
}
if (MEASURES.includes("POST /payments/{app_id}")) {
  const p99 = (side: "ref" | "tree") =>
    median(rounds.map((r) => r[side]["POST /payments/{app_id}"].p99 ?? 0));
  console.log(`\ncreate p99, median of rounds: ref ${p99("ref")} ms, tree ${p99("tree")} ms`);
}
console.log(`load average after each round: ${rounds.map((r) => r.load).join(" | ")}`);
if (unsettled > 0) console.log(`${unsettled} windows started without the machine quiet for 20 s before them`);
