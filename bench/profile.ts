// Where a route's CPU goes: `npm run bench:profile -- [create|get|list|page|app|checkout|quote|poll|confirm|path] [seconds]` starts
// bench/server.ts under `--cpu-prof` on a fresh database (BENCH_DATABASE_URL, else PGlite), no job
// worker, makes a tenant, loads the route with autocannon, stops the server and prints the shares
// of the busy samples taken in the window (start-up and a 2 s warm-up left out): the heaviest
// functions by self time, and self time by where the code lives (the project's folders, each
// package). `list` reads a first page of one payment, `page` one of twenty. `confirm` confirms
// payments made before the window (BENCH_PROFILE_PAYMENTS of them, one each request; without the
// worker they stay `requested`). `path` reads BENCH_PROFILE_PATH (`/events/{app_id}`: the app's,
// a price's and a payment's ids filled in) after twenty payments. The raw profile stays in the
// printed folder for Chrome's DevTools.
// BENCH_PROFILE_CWD=<a checkout> profiles that checkout's server instead (an older ref made with
// `git worktree add` and `npm ci`), to set two profiles side by side. A diagnostic for finding a
// cost; figures to compare come from `npm run bench:ab`.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { CARD, fillPath, json, tenant } from "./journey.ts";
import { freshDatabase, startChild } from "./processes.ts";

const what = process.argv[2] ?? "create";
const seconds = Number(process.argv[3] ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const TOP = Number(process.env.BENCH_PROFILE_TOP ?? 30);

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
}
interface Profile {
  nodes: Node[];
  samples: number[];
  /** Microseconds on the monotonic clock (process.hrtime's, in every process on Linux). */
  startTime: number;
  timeDeltas: number[];
}

/** Where a frame's code lives: a package's name, a project folder, or what V8 calls it. */
function placeOf(url: string): string {
  if (!url) return "(V8 and native)";
  const inPackage = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (inPackage) return inPackage[1];
  if (url.startsWith("node:")) return "node:*";
  const inProject = url.match(/\/(src\/(?:platform|modules)\/[^/]+|src|bench)\//);
  return inProject ? inProject[1] : url;
}

/** The shares of the samples taken from `fromUs` on (the window: start-up and warm-up left out). */
function summarise(profile: Profile, fromUs: number) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  const places = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime;
  for (const [i, id] of profile.samples.entries()) {
    at += profile.timeDeltas[i];
    if (at < fromUs) continue;
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === "(idle)" || functionName === "(program)" || functionName === "(garbage collector)") {
      if (functionName !== "(idle)") places.set(functionName, (places.get(functionName) ?? 0) + 1);
      if (functionName === "(idle)") continue;
      busy++;
      continue;
    }
    busy++;
    const where = placeOf(url);
    const key = `${functionName || "(anonymous)"}  ${where}${url && !url.includes("node_modules") ? `:${lineNumber + 1}` : ""}`;
    self.set(key, (self.get(key) ?? 0) + 1);
    places.set(where, (places.get(where) ?? 0) + 1);
  }
  const share = (n: number) => `${((n * 100) / busy).toFixed(1).padStart(5)}%`;
  console.log(`\n${busy} busy samples in the window\n\nself time by function:`);
  for (const [key, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`${share(n)}  ${key}`);
  console.log("\nself time by place:");
  for (const [key, n] of [...places].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`${share(n)}  ${key}`);
}

/** Paths to confirm: BENCH_PROFILE_PAYMENTS payments made 16 at a time, before the profile's window. */
async function openPayments(
  base: string,
  who: Awaited<ReturnType<typeof tenant>>,
  wanted = Number(process.env.BENCH_PROFILE_PAYMENTS ?? 8000),
) {
  const paths: string[] = [];
  const make = async () => {
    while (paths.length < wanted) {
      const { body } = await json(`${base}/payments/${who.appId}`, {
        method: "POST",
        headers: who.auth,
        body: { price_id: who.priceId, payment_provider: "card" },
      });
      paths.push(`/payments/${who.appId}/${body.id}/confirm`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, make));
  return paths;
}

let windowFromUs = 0;
const profiles = mkdtempSync(path.join(os.tmpdir(), "bench-profile-"));
const database = await freshDatabase(process.env.BENCH_DATABASE_URL, "bench_profile");
const server = await startChild<{ app: number; bare: number }>(
  "bench/server.ts",
  {
    ...database.env,
    RUN_WORKER: "false",
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --cpu-prof --cpu-prof-dir=${profiles}`,
  },
  process.env.BENCH_PROFILE_CWD,
);
try {
  const base = `http://127.0.0.1:${server.ready.app}`;
  const who = await tenant(base, "profile");
  const { body: payment } = await json(`${base}/payments/${who.appId}`, {
    method: "POST",
    headers: who.auth,
    body: { price_id: who.priceId, payment_provider: "card" },
  });
  const routes: Record<string, { url: string; body?: string; headers?: Record<string, string> }> = {
    create: {
      url: `${base}/payments/${who.appId}`,
      body: JSON.stringify({ price_id: who.priceId, payment_provider: "card" }),
    },
    get: { url: `${base}/payments/${who.appId}/${payment.id}` },
    list: { url: `${base}/payments/${who.appId}` },
    page: { url: `${base}/payments/${who.appId}` },
    app: { url: `${base}/apps/${who.appId}` },
    // The hosted checkout page, its quote, and its read of its payment by the payment's token.
    checkout: { url: `${base}/checkout/${who.priceId}`, headers: {} },
    quote: { url: `${base}/checkout/${who.priceId}/quote`, headers: {} },
    poll: {
      url: `${base}/checkout/${who.priceId}/payments/${payment.id}`,
      headers: { "x-payment-token": payment.payment_token },
    },
    // The controls of `npm run bench`, for setting a route's profile beside them.
    bare: { url: `http://127.0.0.1:${server.ready.bare}/bare/apps/${who.appId}` },
    insert: { url: `http://127.0.0.1:${server.ready.bare}/bare/inserts`, body: "{}" },
  };
  // Any other GET: BENCH_PROFILE_PATH with {app_id}, {price_id} and {payment_id} filled in, read
  // with the tenant's credentials (twenty payments made first, for a list that has a page).
  if (what === "path") {
    const wanted = process.env.BENCH_PROFILE_PATH;
    if (!wanted) throw new Error("`path` profiles BENCH_PROFILE_PATH, e.g. /events/{app_id}");
    await openPayments(base, who, 20);
    routes.path = { url: `${base}${fillPath(wanted, { ...who, paymentId: payment.id })}` };
  }
  const confirms = what === "confirm" ? await openPayments(base, who) : [];
  // A full first page: twenty payments besides the one made above.
  if (what === "page") await openPayments(base, who, 20);
  if (what === "confirm") {
    routes.confirm = { url: `${base}${confirms[0]}`, body: JSON.stringify({ payment_method: CARD }) };
  }
  const route = routes[what];
  if (!route) throw new Error(`No route called ${what}: one of ${Object.keys(routes).join(", ")}, confirm`);
  let confirmed = 0;
  // A warm-up the profile also holds, then the window.
  const load = (duration: number) =>
    autocannon({
      url: route.url,
      connections: CONNECTIONS,
      duration,
      method: route.body ? "POST" : "GET",
      headers: route.body ? { ...who.auth, "content-type": "application/json" } : (route.headers ?? who.auth),
      body: route.body,
      // Each confirm its own payment; after the last one, they answer 409 (counted as non-2xx).
      requests: confirms.length
        ? [{ setupRequest: (request) => ({ ...request, path: confirms[confirmed++ % confirms.length] }) }]
        : undefined,
    });
  await load(2);
  windowFromUs = Number(process.hrtime.bigint() / 1000n);
  const result = await load(seconds);
  console.log(
    `${what}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, ${result.non2xx} non-2xx`,
  );
} finally {
  await server.stop();
  await database.drop();
}
const [file] = readdirSync(profiles).filter((name) => name.endsWith(".cpuprofile"));
if (!file) throw new Error(`No profile was written to ${profiles}`);
summarise(JSON.parse(readFileSync(path.join(profiles, file), "utf8")) as Profile, windowFromUs);
console.log(`\nthe profile: ${path.join(profiles, file)}`);
