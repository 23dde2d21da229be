// Every list's ORDER BY must be the order of an index on its table: otherwise PostgreSQL reads the
// whole table and sorts it on every page (a million payments: seconds per request). The queries
// checked are the ones the services send, captured on their way to the server and EXPLAINed.
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import pg from "pg";
import { clonePayments } from "../../bench/seed-payments.ts";
import { onPostgres } from "../helpers/app.ts";
import { createAuction } from "../helpers/auctions.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { createPayment } from "../helpers/payments.ts";
import { createPrice, createTestKyc } from "../helpers/prices.ts";

const SEEDED_PAYMENTS = 20_000;

interface Sent {
  text: string;
  values: unknown[];
}
const sent: Sent[] = [];
// Client, not Pool: the pool's queries and a transaction's (a checked-out client) both pass here.
const originalQuery = pg.Client.prototype.query;

let admin: pg.Client;

/** The list statements (ordered and limited) sent while `run` goes, that read from `table`. */
async function listStatements(table: string, run: () => Promise<unknown>): Promise<Sent[]> {
  sent.length = 0;
  await run();
  return sent.filter(
    (s) => /order by/i.test(s.text) && /limit/i.test(s.text) && s.text.includes(`from "${table}"`),
  );
}

type PlanNode = { "Node Type": string; "Relation Name"?: string; Plans?: PlanNode[] };

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (value instanceof Date) return admin.escapeLiteral(value.toISOString());
  return admin.escapeLiteral(String(value));
}

async function planOf(statement: Sent, settings: string[] = []): Promise<PlanNode[]> {
  await admin.query("begin");
  try {
    for (const setting of settings) await admin.query(setting);
    // EXPLAIN takes no bound parameters: the values go in as quoted literals, as the server sees them.
    const inlined = statement.text.replace(/\$(\d+)/g, (_, n) => literal(statement.values[Number(n) - 1]));
    const { rows } = await admin.query(`explain (format json) ${inlined}`);
    return nodes(rows[0]["QUERY PLAN"][0].Plan);
  } finally {
    await admin.query("rollback");
  }
}

const skip = onPostgres
  ? false
  : "query plans are PostgreSQL's; PGlite's planner is not what production runs";

describe("list query plans", { skip }, () => {
  before(() => {
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const [first, second] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
      if (typeof first === "string") sent.push({ text: first, values: second ?? [] });
      else if (first && typeof first.text === "string")
        sent.push({ text: first.text, values: first.values ?? second ?? [] });
      return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof pg.Client.prototype.query;
  });
  const fx = useTestApp(
    { WEBHOOKS_ALLOW_LOOPBACK: "true" },
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

  test(`payments: ${SEEDED_PAYMENTS} rows, page 1 and a cursor page, read through the index`, async () => {
    const price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
    const template = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
    });
    await clonePayments(admin, template.id, SEEDED_PAYMENTS);
    const cursor = `${template.id}_500`;
    for (const path of [
      `/payments/${fx.tenants.app.id}`,
      `/payments/${fx.tenants.app.id}?starting_after=${cursor}`,
    ]) {
      const statements = await listStatements("payments", async () => {
        expectStatus(await call(fx.app, "GET", path, { token: fx.tenants.owner.token }), 200);
      });
      assert.equal(statements.length, 1, `one list statement for ${path}`);
      const plan = await planOf(statements[0]);
      const scans = plan.filter((n) => n["Relation Name"] === "payments").map((n) => n["Node Type"]);
      assert.ok(scans.length > 0, JSON.stringify(plan.map((n) => [n["Node Type"], n["Relation Name"]])));
      assert.ok(!scans.includes("Seq Scan"), `${path}: ${JSON.stringify(scans)}`);
      assert.ok(!plan.some((n) => n["Node Type"] === "Sort"), `${path} sorts ${SEEDED_PAYMENTS} rows`);
    }
  });

  test("every other list reads its table through an index in list order", async () => {
    const owner = fx.tenants.owner.token;
    const auction = await createAuction(fx.app, owner, fx.tenants.app.id);
    const endpoint = expectStatus(
      await call(fx.app, "POST", `/webhooks/${fx.tenants.app.id}`, {
        token: owner,
        body: { url: "http://127.0.0.1:9/hooks", events: ["payment.paid"] },
      }),
      201,
    );
    const kyc = await createTestKyc(fx.app, owner, fx.tenants.app.id);
    const lists: [table: string, path: string, sorts?: string][] = [
      ["prices", `/prices/${fx.tenants.app.id}`],
      ["auctions", `/auctions/${fx.tenants.app.id}`],
      ["bids", `/auctions/${fx.tenants.app.id}/${auction.id}/bids`],
      ["wallets", `/wallets/${fx.tenants.app.id}`],
      ["triggers", `/triggers/${fx.tenants.app.id}`],
      ["members", `/members/${fx.tenants.app.id}`],
      ["kycs", `/apps/${fx.tenants.app.id}/kycs?starting_after=${kyc.id}`],
      ["webhook_endpoints", `/webhooks/${fx.tenants.app.id}`],
      ["webhook_deliveries", `/webhooks/${fx.tenants.app.id}/${endpoint.id}/deliveries`],
      ["api_keys", `/apps/${fx.tenants.app.id}/api-keys`],
      ["webhook_events", `/events/${fx.tenants.app.id}`],
      ["webhook_events", `/events/${fx.tenants.app.id}?type=payment.paid`],
      ["webhook_events", `/events/${fx.tenants.app.id}?created[gte]=2026-01-01T00:00:00Z`],
      ["webhook_events", `/events/${fx.tenants.app.id}?type=payment.*`],
      // A person's apps come through their memberships (few), then sort: no index orders a join.
      ["members", "/apps", "a person's memberships, a handful of rows"],
      // Mail readable by recipient OR by owned app: two index ranges merged, then sorted.
      ["sandbox_mails", "/sandbox/mail", "the two readable ranges, merged"],
    ];
    for (const [table, path, sorts] of lists) {
      const statements = await listStatements(table, async () =>
        expectStatus(await call(fx.app, "GET", path, { token: owner }), 200),
      );
      assert.equal(statements.length, 1, `one list statement for ${path}`);
      // Small tables: forbid the ways out that are cheap only while a table is small (read it all,
      // or fetch the rows and sort them), so what remains is what a large table would get: a Sort
      // still in the plan means no index gives the list's order.
      const plan = await planOf(statements[0], [
        "set local enable_seqscan = off",
        "set local enable_bitmapscan = off",
        "set local enable_sort = off",
      ]);
      const scans = plan.filter((n) => n["Relation Name"] === table).map((n) => n["Node Type"]);
      assert.ok(scans.length > 0, `${path} reads ${table}`);
      assert.ok(!scans.includes("Seq Scan"), `${path}: ${JSON.stringify(scans)}`);
      if (!sorts)
        assert.ok(
          !plan.some((n) => n["Node Type"] === "Sort"),
          `${path} is read in list order: ${JSON.stringify(plan.map((n) => [n["Node Type"], n["Relation Name"]]))}`,
        );
    }
  });
});
