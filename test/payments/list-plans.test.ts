// Every filter of the payments list (GET /payments/{app_id}, src/modules/payments/search.ts) and the
// combinations the dashboard sends are served by the index meant for them, so a list of a million
// payments answers as fast as one of a thousand (`npm run bench:lists`, docs/benchmarks.md). The
// statements checked are the ones the route sends, captured on their way to the server and
// EXPLAINed after ANALYZE.
//
// The rows come from the benchmark's seeder (bench/seed-payments.ts), not the API: this tests the
// planner over many rows, not a user journey, and the API would take minutes to make them. Its
// spread gives each filter a realistic share of the list (a rare status, one price in a hundred, one
// address per payment, a thousand amounts).
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import pg from "pg";
import { clonePayments } from "../../bench/seed-payments.ts";
import { onPostgres } from "../helpers/app.ts";
import { type AppFixture, useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { createPayment } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";

const SEEDED = 50_000;

interface Sent {
  text: string;
  values: unknown[];
}
type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
};

const sent: Sent[] = [];
// Client, not Pool: the pool's queries and a transaction's (a checked-out client) both pass here.
const originalQuery = pg.Client.prototype.query;
let admin: pg.Client;
let fx: AppFixture;

const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

function literal(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (value instanceof Date) return admin.escapeLiteral(value.toISOString());
  return admin.escapeLiteral(String(value));
}

/** The plan PostgreSQL makes for `statement` with its values, after `before` ran (then rolled back). */
async function planOf(statement: Sent, before: string[] = []): Promise<PlanNode[]> {
  await admin.query("begin");
  try {
    for (const setup of before) await admin.query(setup);
    // EXPLAIN takes no bound parameters: the values go in as quoted literals, as the server sees them.
    const inlined = statement.text.replace(/\$(\d+)/g, (_, n) => literal(statement.values[Number(n) - 1]));
    const { rows } = await admin.query(`explain (format json) ${inlined}`);
    return nodes(rows[0]["QUERY PLAN"][0].Plan);
  } finally {
    await admin.query("rollback");
  }
}

/** The statements reading payments that one list request sends: the page, and its count. */
async function statementsOf(path: string, token: string): Promise<{ page: Sent; count: Sent }> {
  sent.length = 0;
  expectStatus(await call(fx.app, "GET", path, { token }), 200);
  const reading = sent.filter((s) => s.text.includes(`from "payments"`));
  const page = reading.filter((s) => /order by/i.test(s.text) && /limit/i.test(s.text));
  const count = reading.filter((s) => /count\(/i.test(s.text));
  assert.equal(page.length, 1, `one page statement for ${path}`);
  assert.equal(count.length, 1, `one count statement for ${path}`);
  return { page: page[0], count: count[0] };
}

interface Expectation {
  /** The index that must serve the page. */
  index: string;
  /** Why the page may sort the rows found (the index finds them out of list order), if it may. */
  sorts?: string;
}

/** What is wrong with the plans of a list request, in words: empty when the index serves it. */
function problemsOf(page: PlanNode[], count: PlanNode[], expected: Expectation): string[] {
  const shape = (plan: PlanNode[]) =>
    JSON.stringify(plan.map((n) => [n["Node Type"], n["Relation Name"] ?? n["Index Name"]].filter(Boolean)));
  const problems: string[] = [];
  for (const [what, plan] of [
    ["page", page],
    ["count", count],
  ] as const) {
    if (plan.some((n) => n["Node Type"] === "Seq Scan" && n["Relation Name"] === "payments"))
      problems.push(`the ${what} reads every payment: ${shape(plan)}`);
  }
  if (!page.some((n) => n["Index Name"] === expected.index))
    problems.push(`the page is not read through ${expected.index}: ${shape(page)}`);
  if (!expected.sorts && page.some((n) => n["Node Type"] === "Sort"))
    problems.push(`the page sorts what it found instead of reading it in list order: ${shape(page)}`);
  return problems;
}

const skip = onPostgres
  ? false
  : "the statements are captured from node-postgres, which only the PostgreSQL engine uses";

describe("payments list filters, each served by its index", { skip }, () => {
  fx = useTestApp(
    {},
    {
      async setUp() {
        admin = new pg.Client({ connectionString: fx.app.connectionString });
        await admin.connect();
      },
      async tearDown() {
        pg.Client.prototype.query = originalQuery;
        await admin?.end();
      },
    },
  );
  let list: string;
  let token: string;
  let idPrefix: string;
  let rarePriceId: string;
  let newest: Date;

  before(async () => {
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const [first, second] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
      if (typeof first === "string") sent.push({ text: first, values: second ?? [] });
      else if (first && typeof first.text === "string")
        sent.push({ text: first.text, values: first.values ?? second ?? [] });
      return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof pg.Client.prototype.query;
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
    await clonePayments(admin, template.id, SEEDED, 1, { rarePriceId });
    // Six hex digits after `pay_`: one copy in sixteen million shares them, so a handful here.
    const { rows } = await admin.query(
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
    [
      "amount range",
      () => "currency=usd&amount[gte]=15.00&amount[lte]=15.01",
      { index: "payments_app_charge_idx", sorts: "the payments of two amounts in fifty thousand" },
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
      { index: "payments_app_charge_idx", sorts: "the payments of two amounts in fifty thousand" },
    ],
  ];

  for (const [name, query, expected] of cases) {
    test(`${name}: read through ${expected.index}`, async () => {
      const path = `${list}?${query()}`;
      const { page, count } = await statementsOf(path, token);
      const problems = problemsOf(await planOf(page), await planOf(count), expected);
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
      const problems = problemsOf(await planOf(page, drop), await planOf(count, drop), expected);
      assert.ok(problems.length > 0, `${query} still passes without ${expected.index}`);
    }
  });
});
