// `npm run bench:instructions -- [ref]`: the instructions the service's own process executes a call
// of a read, counted by valgrind's callgrind, for setting two versions of the code side by side when
// the machine's noise hides what they differ by. Request rates on this 2-core machine move by a
// third from one minute to the next (docs/benchmarks.md); an instruction count under
// `--single-threaded --predictable` (V8 compiling and collecting on the main thread, at the same
// points every run) repeats within about 1%. It is not time: a cache miss or a system call's wait
// counts as the instructions around it. Rates and CPU are still read with `npm run bench:ab`.
//
// Each run builds the application in a child under callgrind with its instrumentation off, on a
// fresh PostgreSQL database (BENCH_DATABASE_URL: the database's work is another process's, not
// counted), makes a tenant and twenty payments over HTTP, warms the part up
// (BENCH_INSTRUCTION_WARMUP calls, 300), then counts BENCH_INSTRUCTION_CALLS calls (300) of it
// alone, switched on and off by `callgrind_control`. The parts (BENCH_INSTRUCTION_PARTS, all by
// default): `control`, `npm run bench`'s bare PK SELECT (unnamed, on the service's pool); `get`,
// the GET by id's service call (`getPayment`); `bare`, the bare route around that SELECT, and
// `request`, the GET by id through the whole route (its hooks, the credential, the serializer),
// both through Fastify's `inject` (no socket: what inject itself costs is in both); and `list`, a
// page of twenty (`listPayments`); `create`, `POST /payments/{app_id}` through the whole route
// and what the process does for it before the next (a row more each call). With a ref, the ref's
// checkout (bench/checkout.ts) runs this file's copy against its own code, and the two alternate,
// BENCH_INSTRUCTION_RUNS times each (2).
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";

const PARTS = ["control", "get", "bare", "request", "list", "create"] as const;
type Part = (typeof PARTS)[number];

if (process.argv[2] === "--child") await child(process.argv[3] as Part);
else await parent(process.argv[2]);

/** Runs in the counted process: the application, its part warmed up, then the counted calls. */
async function child(part: Part) {
  const { buildApplication } = await import("../src/app.ts");
  const { loadConfig } = await import("../src/config.ts");
  // From service.ts, which exports both in every version of the code a ref may check out.
  const { getPayment, listPayments } = await import("../src/modules/payments/service.ts");
  const { pageOf } = await import("../src/platform/http/pagination.ts");
  const { createLogger } = await import("../src/platform/log.ts");
  const { json, tenant } = await import("./journey.ts");
  const warmup = Number(process.env.BENCH_INSTRUCTION_WARMUP ?? 300);
  const calls = Number(process.env.BENCH_INSTRUCTION_CALLS ?? 300);
  const config = loadConfig({ ...process.env, PORT: "0", LOG_LEVEL: "fatal", RUN_WORKER: "false" });
  const application = await buildApplication({ config, logger: createLogger("fatal") });
  await application.start();
  await application.app.listen({ port: 0, host: "127.0.0.1" });
  const { deps } = application;
  const base = `http://127.0.0.1:${(application.app.server.address() as { port: number }).port}`;
  const who = await tenant(base, "instructions");
  let paymentId = "";
  for (let i = 0; i < 20; i++) {
    const { body } = await json(`${base}/payments/${who.appId}`, {
      method: "POST",
      headers: who.auth,
      body: { price_id: who.priceId, payment_provider: "card" },
    });
    paymentId = body.id;
  }
  const { body: me } = await json(`${base}/users/me`, { headers: who.auth });
  const actor = { kind: "user" as const, userId: me.id as string, sessionId: "bench" };
  const page = pageOf({ limit: 20 } as Parameters<typeof pageOf>[0]);
  const control = "select id, name, type, created_at from apps where id = $1";
  // `npm run bench`'s bare route (bench/server.ts), on a Fastify of its own, through `inject` too.
  const { default: Fastify } = await import("fastify");
  const bare = Fastify();
  bare.get<{ Params: { id: string } }>("/bare/apps/:id", async (request) => {
    const result = await deps.database.pool!.query({ text: control, values: [request.params.id], name: "" });
    return result.rows[0];
  });
  const call = {
    control: () => deps.database.pool!.query({ text: control, values: [who.appId], name: "" }),
    get: () => getPayment(deps, actor, who.appId, paymentId),
    bare: () => bare.inject({ url: `/bare/apps/${who.appId}` }),
    request: () => application.app.inject({ url: `/payments/${who.appId}/${paymentId}`, headers: who.auth }),
    list: () => listPayments(deps, actor, who.appId, page, {}),
    create: () =>
      application.app.inject({
        method: "POST",
        url: `/payments/${who.appId}`,
        headers: who.auth,
        payload: { price_id: who.priceId, payment_provider: "card" },
      }),
  }[part];
  // The route answers the payment, not a refusal: what is counted is the read.
  const answer = await application.app.inject({
    url: `/payments/${who.appId}/${paymentId}`,
    headers: who.auth,
  });
  if (answer.statusCode !== 200) throw new Error(`the GET by id answered ${answer.statusCode}`);
  for (let i = 0; i < warmup; i++) await call();
  // The parent switches the counting on between "ready" and its answer, and off after "done".
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  process.stdout.write("ready\n");
  await lines.next();
  for (let i = 0; i < calls; i++) await call();
  process.stdout.write("done\n");
  await lines.next();
  await application.close();
  process.exit(0);
}

/** Instructions a call of `part` in checkout `cwd`, on a database of its own. */
async function count(cwd: string, part: Part): Promise<number> {
  const { freshDatabase } = await import("./processes.ts");
  const database = await freshDatabase(process.env.BENCH_DATABASE_URL, "bench_instructions");
  try {
    const node = path.join(cwd, "node_modules/node/bin/node");
    const flags = ["--single-threaded", "--predictable", "bench/instructions.ts", "--child", part];
    const proc = spawn(
      "valgrind",
      ["--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=/dev/null", node, ...flags],
      {
        cwd,
        env: { ...process.env, ...database.env },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let log = "";
    proc.stderr.on("data", (chunk) => {
      log += chunk;
    });
    const control = (on: boolean) =>
      execFileSync("callgrind_control", ["-i", on ? "on" : "off", String(proc.pid)], { stdio: "ignore" });
    createInterface({ input: proc.stdout }).on("line", (line) => {
      if (line === "ready") control(true);
      if (line === "done") control(false);
      if (line === "ready" || line === "done") proc.stdin.write("next\n");
    });
    const code = await new Promise<number | null>((resolve) => proc.once("exit", resolve));
    const collected = log.match(/Collected : (\d+)/);
    if (code !== 0 || !collected)
      throw new Error(`the counted run of ${part} failed (${code}):\n${log.slice(-3000)}`);
    return Number(collected[1]) / Number(process.env.BENCH_INSTRUCTION_CALLS ?? 300);
  } finally {
    await database.drop();
  }
}

// The parent's own modules are imported here, not above: a ref's checkout runs this file as a
// child, and may not have them.
async function parent(ref: string | undefined) {
  const { checkout, commitOf, removeCheckout } = await import("./checkout.ts");
  const { median } = await import("./stats.ts");
  if (!process.env.BENCH_DATABASE_URL) {
    console.error("bench:instructions needs PostgreSQL: set BENCH_DATABASE_URL");
    process.exit(2);
  }
  const parts = (process.env.BENCH_INSTRUCTION_PARTS?.split(",") ?? PARTS) as Part[];
  const runs = Number(process.env.BENCH_INSTRUCTION_RUNS ?? 2);
  const sha = ref ? commitOf(ref) : undefined;
  const dir = sha ? checkout(sha, "bench-instructions") : undefined;
  // The ref runs this file as it is here, against its own code.
  if (dir) copyFileSync("bench/instructions.ts", path.join(dir, "bench/instructions.ts"));
  const sides = [["tree", process.cwd()], ...(dir ? [[ref!, dir]] : [])] as [string, string][];
  const figures = new Map<string, number[]>();
  try {
    for (const part of parts) {
      for (let run = 0; run < runs; run++) {
        // Which side goes first alternates, as in bench:ab.
        for (const [side, cwd] of run % 2 === 0 ? sides : [...sides].reverse()) {
          const perCall = await count(cwd, part);
          console.log(`${part}, ${side}: ${Math.round(perCall).toLocaleString("en")} instructions a call`);
          figures.set(`${part}\u0000${side}`, [...(figures.get(`${part}\u0000${side}`) ?? []), perCall]);
        }
      }
    }
  } finally {
    if (dir) removeCheckout(dir);
  }
  const of = (part: Part, side: string) => figures.get(`${part}\u0000${side}`) ?? [];
  const thousands = (values: number[]) => values.map((v) => (v / 1000).toFixed(0)).join(", ");
  console.log(`\nthousands of instructions a call, ${runs} runs a side${ref ? ` (tree / ${ref})` : ""}\n`);
  console.log(`| part | tree |${ref ? ` ${ref} | ratio |` : ""}\n|---|---:|${ref ? "---:|---:|" : ""}`);
  for (const part of parts) {
    const tree = of(part, "tree");
    const row = [part, thousands(tree)];
    if (ref) row.push(thousands(of(part, ref)), (median(tree) / median(of(part, ref))).toFixed(3));
    console.log(`| ${row.join(" | ")} |`);
  }
}
