// Every filter of the payments list (GET /payments/{app_id}, src/modules/payments/search.ts) and the
// combinations the dashboard sends are served by the index meant for them, so a list of a million
// payments answers as fast as one of a thousand (`npm run bench:lists`, docs/benchmarks.md): the
// statements the route sends, captured on their way to the server, EXPLAINed after ANALYZE.
// The rows come from the benchmark's seeder (bench/seed-payments.ts), not the API: this tests the
// planner over many rows, not a user journey, and the API would take minutes to make them. Its
// spread gives each filter a realistic share of the list (a rare status, one price in a hundred,
// one address per payment, a thousand amounts).
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { clonePayments, type Queryable } from "../../bench/seed-payments.ts";
import { type AppFixture, useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { createPayment } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";

const SEEDED = 50_000;

type Sent = { text: string; values: unknown[] };
type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
};

const sent: Sent[] = [];
let fx: AppFixture;

const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

/** The plan of a statement the request sent; none when it sent none (a search that was its own count). */
const planIf = (engine: Engine, statement: Sent | undefined, setup?: string[]) =>
  statement ? engine.planOf(statement, setup) : Promise.resolve([]);

/** A value as the server would read it from a bound parameter, as an SQL literal. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return "null";
  const text = value instanceof Date ? value.toISOString() : String(value);
  return `'${text.replaceAll("'", "''")}'`;
}

/** EXPLAIN takes no bound parameters: the values go in as quoted literals, as the server sees them. */
const explainOf = (statement: Sent) =>
  `explain (format json) ${statement.text.replace(/\$(\d+)/g, (_, n) => literal(statement.values[Number(n) - 1]))}`;

/** The engine under the test app, as this test needs it. */
interface Engine {
  /** Where the seeder writes. */
  seeder: Queryable;
  /** The plan made for `statement` after `setup` ran, in a transaction rolled back afterwards. */
  planOf(statement: Sent, setup?: string[]): Promise<PlanNode[]>;
  /** Stops recording what the app sends. */
  release(): Promise<void>;
}

function record(first: unknown, second: unknown) {
  if (typeof first === "string") sent.push({ text: first, values: (second as unknown[]) ?? [] });
  else if (first && typeof (first as Sent).text === "string") {
    const query = first as Sent;
    sent.push({ text: query.text, values: query.values ?? (second as unknown[]) ?? [] });
  }
}

async function postgresEngine(connectionString: string): Promise<Engine> {
  // Client, not Pool: the pool's queries and a transaction's (a checked-out client) both pass here.
  const originalQuery = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    record(args[0], args[1]);
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
  const admin = new pg.Client({ connectionString });
  await admin.connect();
  return {
    seeder: admin,
    async planOf(statement, setup = []) {
      await admin.query("begin");
      try {
        for (const step of setup) await admin.query(step);
        const { rows } = await admin.query(explainOf(statement));
        return nodes(rows[0]["QUERY PLAN"][0].Plan);
      } finally {
        await admin.query("rollback");
      }
    },
    async release() {
      pg.Client.prototype.query = originalQuery;
      await admin.end();
    },
  };
}

// PGlite is PostgreSQL's own planner compiled to WebAssembly, with the same cost settings: its
// plans are the ones a server makes for the same rows and statistics, so the test runs on both.
function pgliteEngine(pglite: PGlite): Engine {
  const originalQuery = pglite.query;
  pglite.query = function (this: PGlite, ...args: unknown[]) {
    record(args[0], args[1]);
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pglite.query;
  return {
    seeder: pglite,
    async planOf(statement, setup = []) {
      let plan: PlanNode[] = [];
      await pglite.transaction(async (tx) => {
        for (const step of setup) await tx.exec(step);
        const { rows } = await tx.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(explainOf(statement));
        plan = nodes(rows[0]["QUERY PLAN"][0].Plan);
        await tx.rollback();
      });
      return plan;
    },
    async release() {
      pglite.query = originalQuery;
    },
  };
}

/** The statements reading payments that one list request sends: the page, and its count. */
async function statementsOf(
  path: string,
  token: string,
  table = "payments",
): Promise<{ page: Sent; count?: Sent }> {
  sent.length = 0;
  expectStatus(await call(fx.app, "GET", path, { token }), 200);
  const reading = sent.filter((s) => s.text.includes(`from "${table}"`));
  const page = reading.filter((s) => /order by/i.test(s.text) && /limit/i.test(s.text));
  const count = reading.filter((s) => /count\(/i.test(s.text));
  assert.equal(page.length, 1, `one page statement for ${path}`);
  // A search for a part of an email whose first page holds every match is its own count.
  const counted = !/shopper_email=/.test(path);
  assert.equal(count.length, counted ? 1 : 0, `${counted ? "one count statement" : "no count"} for ${path}`);
  return { page: page[0], count: count[0] };
}

interface Expectation {
  /** The index that must serve the page. */
  index: string;
  /** Why the page may sort the rows found (the index finds them out of list order), if it may. */
  sorts?: string;
  /** The page's keys are picked from the index alone (it holds `created_at` and `id`), not the rows. */
  keysFromIndex?: true;
  /** Each value's records are read from the index in list order, up to the page's end, unsorted. */
  eachInListOrder?: true;
}

/** What is wrong with the plans of a list request, in words: empty when the index serves it. */
function problemsOf(
  page: PlanNode[],
  count: PlanNode[],
  expected: Expectation,
  table = "payments",
): string[] {
  const shape = (plan: PlanNode[]) =>
    JSON.stringify(plan.map((n) => [n["Node Type"], n["Relation Name"] ?? n["Index Name"]].filter(Boolean)));
  const problems: string[] = [];
  for (const [what, plan] of [
    ["page", page],
    ["count", count],
  ] as const) {
    if (plan.some((n) => n["Node Type"] === "Seq Scan" && n["Relation Name"] === table))
      problems.push(`the ${what} reads all of ${table}: ${shape(plan)}`);
  }
  if (!page.some((n) => n["Index Name"] === expected.index))
    problems.push(`the page is not read through ${expected.index}: ${shape(page)}`);
  if (
    expected.keysFromIndex &&
    !page.some((n) => n["Node Type"] === "Index Only Scan" && n["Index Name"] === expected.index)
  )
    problems.push(`the page's keys are not read from ${expected.index} alone: ${shape(page)}`);
  if (
    expected.eachInListOrder &&
    !page.some(
      (n) =>
        n["Node Type"] === "Limit" &&
        n.Plans?.[0]["Node Type"] === "Index Only Scan" &&
        n.Plans[0]["Index Name"] === expected.index,
    )
  )
    problems.push(`each value's records are not read in list order from ${expected.index}: ${shape(page)}`);
  if (!expected.sorts && page.some((n) => n["Node Type"] === "Sort"))
    problems.push(`the page sorts what it found instead of reading it in list order: ${shape(page)}`);
  return problems;
}

describe("payments list filters, each served by its index", () => {
  let engine: Engine;
  fx = useTestApp(
    { WEBHOOKS_ALLOW_LOOPBACK: "true" },
    {
      async setUp() {
        const { database } = fx.app.deps;
        engine = database.pglite
          ? pgliteEngine(database.pglite)
          : await postgresEngine(fx.app.connectionString as string);
      },
      async tearDown() {
        await engine?.release();
      },
    },
  );
  let list: string;
  let token: string;
  let idPrefix: string;
  let rarePriceId: string;
  let newest: Date;

  before(async () => {
    token = fx.tenants.owner.token;
    const appId = fx.tenants.app.id;
    list = `/payments/${appId}`;
    const price = await createPrice(fx.app, token, appId);
    rarePriceId = (await createPrice(fx.app, token, appId, { name: "Backstage pass" })).id;
    const template = await createPayment(fx.app, token, appId, {
      price_id: price.id,
      payment_provider: "card",
    });
    newest = new Date(template.created_at);
    await clonePayments(engine.seeder, template.id, SEEDED, 1, { rarePriceId });
    // Six hex digits after `pay_`: one copy in sixteen million shares them, so a handful here.
    const { rows } = await engine.seeder.query(
      "select id from payments where shopper_email = 'shopper4321@example.com'",
    );
    idPrefix = rows[0].id.slice(0, 10);
  });

  /** An instant `hours` before the newest payment (copies are one second apart). */
  const hoursBack = (hours: number) => new Date(newest.getTime() - hours * 3_600_000).toISOString();

  const cases: [name: string, query: () => string, expected: Expectation][] = [
    ["status", () => "status=refunded", { index: "payments_app_status_created_idx" }],
    [
      "a rare status",
      () => "status=hold",
      { index: "payments_app_status_created_idx", sorts: "one payment in a thousand" },
    ],
    ["price_id", () => `price_id=${rarePriceId}`, { index: "payments_price_created_idx" }],
    [
      "id_prefix",
      () => `id_prefix=${idPrefix}`,
      { index: "payments_id_pattern_idx", sorts: "the ids that start so, a handful" },
    ],
    [
      "shopper_email",
      () => "shopper_email=shopper4321@",
      { index: "payments_email_trgm_idx", sorts: "the addresses that contain it, a handful" },
    ],
    // Estimated by its length (0.8% of the rows), it was read newest first to its one match at the end.
    [
      "a short shopper_email",
      () => "shopper_email=r77@",
      { index: "payments_email_trgm_idx", sorts: "the addresses that contain it, found first" },
    ],
    [
      "amount range",
      () => "currency=usd&amount[gte]=15.00&amount[lte]=15.01",
      {
        index: "payments_app_charge_idx",
        sorts: "the first keys of each of two amounts",
        keysFromIndex: true,
        eachInListOrder: true,
      },
    ],
    // 151 amounts, a seventh of the list: reading the list newest first finds a page soonest.
    [
      "a wide amount range",
      () => "currency=usd&amount[gte]=15.00&amount[lte]=16.50",
      { index: "payments_app_created_idx", sorts: "the page's rows, read by their keys" },
    ],
    [
      "created range",
      () => `created[gte]=${hoursBack(3)}&created[lte]=${hoursBack(2)}`,
      { index: "payments_app_created_idx" },
    ],
    [
      "status and created range",
      () => `status=refunded&created[gte]=${hoursBack(3)}&created[lte]=${hoursBack(2)}`,
      { index: "payments_app_status_created_idx" },
    ],
    [
      "status and shopper_email",
      () => "status=paid&shopper_email=shopper4321@",
      { index: "payments_email_trgm_idx", sorts: "the addresses that contain it, a handful" },
    ],
    [
      "price_id and created range",
      () => `price_id=${rarePriceId}&created[gte]=${hoursBack(10)}&created[lte]=${hoursBack(2)}`,
      { index: "payments_price_created_idx" },
    ],
    [
      "amount range and created range",
      () => `currency=usd&amount[gte]=15.00&amount[lte]=15.01&created[gte]=${hoursBack(10)}`,
      {
        index: "payments_app_charge_idx",
        sorts: "the first keys of each of two amounts",
        keysFromIndex: true,
        eachInListOrder: true,
      },
    ],
  ];

  for (const [name, query, expected] of cases) {
    test(`${name}: read through ${expected.index}`, async () => {
      const path = `${list}?${query()}`;
      const { page, count } = await statementsOf(path, token);
      const problems = problemsOf(await engine.planOf(page), await planIf(engine, count), expected);
      assert.deepEqual(problems, [], path);
    });
  }

  test("control: without its index, the same check fails", async () => {
    // Dropped inside planOf's transaction, so only that EXPLAIN sees the table without it.
    for (const [query, expected] of [
      ["status=hold", { index: "payments_app_status_created_idx" }],
      [
        "shopper_email=shopper4321@",
        { index: "payments_email_trgm_idx", sorts: "the addresses that contain it, a handful" },
      ],
    ] as const) {
      const { page, count } = await statementsOf(`${list}?${query}`, token);
      const drop = [`drop index ${expected.index}`];
      const problems = problemsOf(
        await engine.planOf(page, drop),
        await planIf(engine, count, drop),
        expected,
      );
      assert.ok(problems.length > 0, `${query} still passes without ${expected.index}`);
    }
  });

  test("a short text's matches found first: every one, newest first, page by page", async () => {
    const match = `select id from payments where app_id = '${fx.tenants.app.id}' and shopper_email like`;
    const { rows } = await engine.seeder.query(`${match} '%4321@%' order by created_at desc, id desc`);
    const expected = (rows as { id: string }[]).map((row) => row.id);
    assert.ok(expected.length > 2, "more than a page of two");
    const walked: string[] = [];
    sent.length = 0;
    for (let after = ""; walked.length < 10; ) {
      const answer = await call(fx.app, "GET", `${list}?shopper_email=4321@&limit=2${after}`, { token });
      const items = expectStatus(answer, 200) as { id: string }[];
      assert.equal(Number(answer.headers["x-total-count"]), expected.length);
      walked.push(...items.map((item) => item.id));
      if (items.length < 2) break;
      after = `&starting_after=${items[1].id}`;
    }
    assert.deepEqual(walked, expected);
    assert.ok(
      sent.some((s) => /offset 0\) as "payments"/.test(s.text)),
      "matches first",
    );
  });

  test("the other lists' filters: each has an index that reads in list order", async () => {
    const appId = fx.tenants.app.id;
    const endpoint = expectStatus(
      await call(fx.app, "POST", `/webhooks/${appId}`, {
        token,
        body: { url: "http://127.0.0.1:9/hooks", events: ["payment.paid"] },
      }),
      201,
    );
    const deliveries = `/webhooks/${appId}/${endpoint.id}/deliveries`;
    const lists: [table: string, path: string, expected: Expectation][] = [
      [
        "webhook_deliveries",
        `${deliveries}?status=failed`,
        { index: "webhook_deliveries_endpoint_status_idx" },
      ],
      [
        "ledger_entries",
        `/balance-transactions/${appId}?type=refund`,
        { index: "ledger_entries_app_type_idx" },
      ],
      [
        "audit_events",
        `/apps/${appId}/audit-log?action=api_key.create`,
        { index: "audit_events_app_action_idx" },
      ],
    ];
    // These tables are nearly empty here: forbid the ways out that are cheap only while a table is
    // small (read it all, or fetch and sort), so what remains is what a large table would get.
    const large = [
      "set local enable_seqscan = off",
      "set local enable_bitmapscan = off",
      "set local enable_sort = off",
    ];
    for (const [table, path, expected] of lists) {
      const { page, count } = await statementsOf(path, token, table);
      const plans = [await engine.planOf(page, large), await planIf(engine, count, large)] as const;
      assert.deepEqual(problemsOf(...plans, expected, table), [], path);
      // Control: without that index the same check fails.
      const without = [...large, `drop index ${expected.index}`];
      const fallback = [await engine.planOf(page, without), await planIf(engine, count, without)] as const;
      assert.ok(problemsOf(...fallback, expected, table).length > 0, `${path} passes without its index`);
    }
  });
});
