// What the GET by id's parts cost, one by one: `npm run bench:answer-parts` builds the application
// in this process on a fresh database (BENCH_DATABASE_URL, else PGlite), no job worker, makes a
// tenant and a payment over HTTP, then calls each part BENCH_PARTS_CALLS times (20,000) one after
// the other, BENCH_PARTS_ROUNDS rounds (5) after a round of warm-up, and prints the median CPU a
// call (user and system, this process's: a statement's system calls count, PostgreSQL's work does
// not): the control's statement (`npm run bench`'s bare PK SELECT, unnamed), the payment's
// statement sent by hand (rows as arrays; prepared on PostgreSQL), the same through Drizzle, the
// service's read (`paymentFor`, its context remembered), the read and its presentation
// (without its answer's text remembered; `getPayment`, the route's call, with it), each presenter,
// the route's serializer (fast-json-stringify from the `Payment` schema) and `JSON.stringify`, ten
// of pg's `Query` built from a config as Drizzle sends it, with
// pg's own copy of the config and with the config shim's (each statement builds one; the last part
// leaves the shim on, as the service runs on PostgreSQL), and V8's collections during
// `getPayment`'s calls. One call at a time, so each figure holds a wait's wake-ups too: compare the
// rows of one run. `npm run bench:cpu-split` says whose CPU a loaded request spends; this says
// which part of the server's.
import { createRequire } from "node:module";
import { PerformanceObserver } from "node:perf_hooks";
import fastJson from "fast-json-stringify";
import { buildApplication } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { presentApp } from "../src/modules/apps/service.ts";
import { PaymentContexts } from "../src/modules/payments/context.ts";
import { answerColumns, presentPayment } from "../src/modules/payments/presenters.ts";
import { answerRead, paymentFor, present } from "../src/modules/payments/reads.ts";
import { Payment } from "../src/modules/payments/schemas.ts";
import { getPayment } from "../src/modules/payments/service.ts";
import { presentPrice } from "../src/modules/prices/presenters.ts";
import { prepared } from "../src/platform/db/index.ts";
import {
  installPgQueryConfigShim,
  uninstallPgQueryConfigShim,
} from "../src/platform/db/shims/pg-query-config-shim.ts";
import { createLogger } from "../src/platform/log.ts";
import { json, tenant } from "./journey.ts";
import { freshDatabase } from "./processes.ts";

const CALLS = Number(process.env.BENCH_PARTS_CALLS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_PARTS_ROUNDS ?? 5);

const database = await freshDatabase(process.env.BENCH_DATABASE_URL, "bench_parts");
const config = loadConfig({
  ...process.env,
  ...database.env,
  PORT: "0",
  LOG_LEVEL: "fatal",
  RUN_WORKER: "false",
});
const application = await buildApplication({ config, logger: createLogger("fatal") });
await application.start();
await application.app.listen({ port: 0, host: "127.0.0.1" });
const { deps } = application;
try {
  const base = `http://127.0.0.1:${(application.app.server.address() as { port: number }).port}`;
  const who = await tenant(base, "parts");
  const { body: created } = await json(`${base}/payments/${who.appId}`, {
    method: "POST",
    headers: who.auth,
    body: { price_id: who.priceId, payment_provider: "card" },
  });
  const { body: me } = await json(`${base}/users/me`, { headers: who.auth });
  const actor = { kind: "user" as const, userId: me.id as string, sessionId: "bench" };
  const { payment, known } = await paymentFor(deps, actor, who.appId, created.id, "view", "answer");
  // The context the read remembered (the app with its creator), as `paymentFor` presents it.
  type AppContext = { app: Parameters<typeof presentApp>[0]; owner: Parameters<typeof presentApp>[1] };
  const context = PaymentContexts.of<AppContext>(deps.db, "answer").get({
    appId: who.appId,
    priceId: who.priceId,
    userId: actor.userId,
  });
  if (!context) throw new Error("paymentFor remembered no context for the payment it read");
  const answer = await present(deps, actor, payment, known);
  const serialize = fastJson(Payment as never);

  // The statements as the route's pool sends them; on PGlite, through its own query.
  const query = (text: string, values: unknown[], name: string) =>
    deps.database.pool
      ? deps.database.pool.query({ text, values, name, rowMode: "array" } as never)
      : deps.database.pglite!.query(text, values, { rowMode: "array" });
  // The answer's columns, as the service selects them (`answerColumns`).
  const columns = Object.values(answerColumns)
    .map((column) => `"payments"."${column.name}"`)
    .join(", ");
  const paymentStatement = `select ${columns}, "apps".xmin::text, "prices"."views" from "payments"
    inner join "apps" on "apps"."id" = "payments"."app_id"
    inner join "prices" on "prices"."id" = "payments"."price_id" where "payments"."id" = $1`;

  // The service's own statement, prepared and its rows mapped as `paymentFor` runs it.
  const throughDrizzle = prepared(deps.db, answerRead.name, answerRead.statement);

  // pg's Query, built from a config shaped as Drizzle's prepared statements send theirs (a name,
  // the text, array rows, its own type parsers), with pg's own copy of the config and with the
  // config shim's (src/platform/db/shims/pg-query-config-shim.ts); no statement is sent.
  const Query = createRequire(createRequire(import.meta.url).resolve("pg"))("./query.js") as new (
    config: object,
    values?: unknown[],
  ) => object;
  const drizzleConfig = () => ({
    name: "bench_parts_config",
    text: paymentStatement,
    rowMode: "array",
    types: { getTypeParser: () => (value: string) => value },
  });
  const buildQuery = (shim: boolean) => () => {
    if (shim) installPgQueryConfigShim();
    else uninstallPgQueryConfigShim();
    for (let i = 0; i < 9; i++) new Query(drizzleConfig(), [created.id]);
    return new Query(drizzleConfig(), [created.id]);
  };

  const parts: Record<string, () => unknown> = {
    "the control's statement (bare PK SELECT, unnamed)": () =>
      query("select id, name, type, created_at from apps where id = $1", [who.appId], ""),
    "the payment's statement by hand (rows as arrays)": () =>
      query(paymentStatement, [created.id], "bench_parts_payment"),
    "the same statement through Drizzle (rows mapped)": () =>
      throughDrizzle.execute({ payment_id: created.id }),
    "paymentFor (the service's read, context remembered)": () =>
      paymentFor(deps, actor, who.appId, created.id, "view", "answer"),
    "the read and its presentation (nothing remembered of the answer)": async () => {
      const read = await paymentFor(deps, actor, who.appId, created.id, "view", "answer");
      return present(deps, actor, read.payment, read.known);
    },
    "getPayment (the route's call: its answer's text remembered)": () =>
      getPayment(deps, actor, who.appId, created.id),
    presentPayment: () =>
      presentPayment(payment, {
        app: known.app,
        price: presentPrice(known.price, new Date()),
        paymentToken: "pt",
      }),
    presentApp: () => presentApp(context.app, context.owner, "owner", deps.config.publicUrl),
    presentPrice: () => presentPrice(known.price, new Date()),
    "the route's serializer (fast-json-stringify)": () => serialize(answer),
    "JSON.stringify of the answer": () => JSON.stringify(answer),
    "ten of pg's Query from Drizzle's config, pg's own copy": buildQuery(false),
    "ten of pg's Query from Drizzle's config, the config shim's": buildQuery(true),
  };

  let collections = { count: 0, ms: 0 };
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      collections.count++;
      collections.ms += entry.duration;
    }
  });
  const figures = new Map<string, number[]>();
  const gcFigures: { perThousand: number; usPerCall: number }[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [name, call] of Object.entries(parts)) {
      const watchGc = name.startsWith("getPayment");
      if (watchGc) {
        collections = { count: 0, ms: 0 };
        gc.observe({ entryTypes: ["gc"] });
      }
      const before = process.cpuUsage();
      for (let i = 0; i < CALLS; i++) await call();
      const spent = process.cpuUsage(before);
      if (watchGc) gc.disconnect();
      if (round === 0) continue;
      figures.set(name, [...(figures.get(name) ?? []), (spent.user + spent.system) / CALLS]);
      if (watchGc)
        gcFigures.push({
          perThousand: (collections.count * 1000) / CALLS,
          usPerCall: (collections.ms * 1000) / CALLS,
        });
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(`\n${deps.database.engine}, ${CALLS} calls a part, medians of ${ROUNDS} rounds\n`);
  console.log("| part | CPU µs a call | each round |\n|---|---:|---|");
  for (const [name, values] of figures)
    console.log(`| ${name} | ${median(values).toFixed(1)} | ${values.map((v) => v.toFixed(1)).join(", ")} |`);
  console.log(
    `\nV8's collections during getPayment's calls: ${median(gcFigures.map((g) => g.perThousand)).toFixed(2)} a thousand calls, ` +
      `${median(gcFigures.map((g) => g.usPerCall)).toFixed(2)} µs a call (medians)`,
  );
} finally {
  await application.close();
  await database.drop();
}
