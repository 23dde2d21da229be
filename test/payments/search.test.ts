import assert from "node:assert/strict";
import { test } from "node:test";
import { sql } from "drizzle-orm";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";
import { paymentStatements, statementsWhile } from "../helpers/statements.ts";

// Finding a payment on the server: by id prefix, a piece of the shopper's email, price, amount
// range, status and creation range, each combinable, paged and counted like the whole list; and
// each filter served by an index (EXPLAIN with sequential scans off names it).

const fx = useTestApp();
let mug: { id: string };
let poster: { id: string };
const made: Record<string, { id: string; created_at: string }> = {};

async function list(query: string, token = fx.tenants.owner.token) {
  const answer = await call(fx.app, "GET", `/payments/${fx.tenants.app.id}?${query}`, { token });
  return {
    items: expectStatus(answer, 200) as { id: string }[],
    total: Number(answer.headers["x-total-count"]),
  };
}

const ids = (items: { id: string }[]) => items.map((item) => item.id).sort();

test("set-up: payments of two prices by three shoppers", async () => {
  const token = fx.tenants.owner.token;
  const appId = fx.tenants.app.id;
  mug = await createPrice(fx.app, token, appId, { name: "Mug", amount: 12 });
  poster = await createPrice(fx.app, token, appId, { name: "Poster", amount: 40 });
  for (const [name, price, email] of [
    ["ada", mug, "Ada.Lovelace@example.com"],
    ["grace", poster, "grace@navy.example"],
    ["alan", mug, "alan@bletchley.example"],
  ] as const) {
    made[name] = await createPayment(fx.app, token, appId, {
      price_id: price.id,
      payment_provider: "card",
      shopper_email: email,
    });
  }
  expectStatus(await confirm(fx.app, token, appId, made.grace.id, card(CARDS.ok)), 200);
  await waitForStatus(fx.app, token, appId, made.grace.id, "paid");
});

test("a piece of the email finds its payments, whatever its case", async () => {
  const found = await list("shopper_email=LOVELACE");
  assert.deepEqual(ids(found.items), [made.ada.id]);
  assert.equal(found.total, 1);
  assert.deepEqual(ids((await list("shopper_email=.example")).items), ids([made.grace, made.alan]));
  // LIKE's wildcards typed by a person are text: "%" matches only a "%".
  assert.deepEqual((await list("shopper_email=a%25e")).items, []);
});

test("a member's page of payments is three statements: the app with the role, the page, its count", async () => {
  await list("limit=2"); // the session's credential is read once, then remembered
  let found!: Awaited<ReturnType<typeof list>>;
  const sent = await statementsWhile(fx.app, async () => {
    found = await list("limit=2");
  });
  assert.equal(found.items.length, 2);
  assert.ok(found.total >= 3);
  assert.equal(sent.length, 3, sent.join("\n\n"));
  assert.equal(sent.filter((text) => /"payments"/.test(text)).length, 2, "the page and its count");
  // A developer's list shows the app as a developer sees it: its own role, read in the same statement.
  const asDeveloper = await list("limit=1", fx.tenants.developer.token);
  const [item] = asDeveloper.items as unknown as { app: { permissions: { can_delete: boolean } } }[];
  assert.equal(item.app.permissions.can_delete, false);
});

test("a part of an email found on one page is its own count; a longer answer is counted", async () => {
  const counts = (statements: string[]) => statements.filter((text) => /count\(/i.test(text)).length;
  let found!: Awaited<ReturnType<typeof list>>;
  const one = await paymentStatements(fx.app, async () => {
    found = await list("shopper_email=lovelace");
  });
  assert.equal(found.total, 1);
  assert.equal(counts(one), 0, "the page alone answered it");
  const all = (await list("shopper_email=example&limit=100")).items.length;
  assert.ok(all >= 3);
  const paged = await paymentStatements(fx.app, async () => {
    found = await list("shopper_email=example&limit=1");
  });
  assert.equal(found.items.length, 1);
  assert.equal(found.total, all, "counted past the first page");
  assert.equal(counts(paged), 1);
});

test("an id prefix finds the payment a person half remembers", async () => {
  const prefix = made.alan.id.slice(0, 20);
  const found = await list(`id_prefix=${prefix}`);
  assert.ok(found.items.some((item) => item.id === made.alan.id));
  assert.ok(found.items.every((item) => item.id.startsWith(prefix)));
  assert.deepEqual((await list(`id_prefix=${made.alan.id}`)).items.length, 1);
});

test("amount bounds are in a currency, fees included; price, status and dates combine", async () => {
  // The mug charges 12 plus fees, the poster 40 plus fees.
  assert.deepEqual(ids((await list("currency=usd&amount[gte]=20")).items), [made.grace.id]);
  assert.deepEqual(ids((await list("currency=USD&amount[lte]=20")).items), ids([made.ada, made.alan]));
  assert.deepEqual((await list("currency=eur&amount[gte]=1")).items, []);
  assert.deepEqual(ids((await list(`price_id=${mug.id}&status=pending`)).items), ids([made.ada, made.alan]));
  assert.deepEqual(ids((await list(`price_id=${poster.id}&status=paid`)).items), [made.grace.id]);
  const from = encodeURIComponent(made.grace.created_at);
  const to = encodeURIComponent(made.grace.created_at);
  assert.deepEqual(ids((await list(`created[gte]=${from}&created[lte]=${to}`)).items), [made.grace.id]);
  assert.deepEqual((await list("created[gte]=2999-01-01T00:00:00Z")).items, []);
});

test("every filter at once, in shapes that differ only at their end, each answers on every connection", async () => {
  // Each filter shape is a prepared statement of its own, and PostgreSQL keeps a statement's name
  // to its first 63 bytes: two shapes alike that far must still be two statements. Twice the
  // pool's connections of each, so that both meet on one connection.
  const all = `status=pending&price_id=${mug.id}&id_prefix=pay_&shopper_email=example&currency=usd`;
  const dates = "created[gte]=2000-01-01T00:00:00Z&created[lte]=2999-01-01T00:00:00Z";
  const shapes = [`${all}&amount[gte]=1&${dates}`, `${all}&amount[lte]=100&${dates}`];
  for (let i = 0; i < 40; i++) {
    const found = await list(shapes[i % 2]);
    assert.deepEqual(ids(found.items), ids([made.ada, made.alan]));
  }
});

test("filters page by cursor and keep their filter in the Link header", async () => {
  const first = await call(fx.app, "GET", `/payments/${fx.tenants.app.id}?price_id=${mug.id}&limit=1`, {
    token: fx.tenants.owner.token,
  });
  expectStatus(first, 200);
  assert.equal(first.headers["x-total-count"], "2");
  const link = String(first.headers.link);
  assert.match(link, new RegExp(`price_id=${mug.id}`));
});

test("bad filters are a 400 naming the field, and another app's payments stay invisible", async () => {
  assertProblem(await listRaw("amount[gte]=5"), 400, "validation_failed");
  assert.match((await listRaw("amount[gte]=5")).text, /currency/);
  assertProblem(await listRaw("currency=usd&amount[gte]=-5"), 400, "validation_failed");
  assertProblem(await listRaw("currency=zzz&amount[gte]=5"), 400, "validation_failed");
  assertProblem(await listRaw("shopper_email=ab"), 400, "validation_failed");
  assertProblem(await listRaw("id_prefix=pi_123"), 400, "validation_failed");
  assertProblem(await listRaw("created[gte]=yesterday"), 400, "validation_failed");
  const other = await call(fx.app, "GET", `/payments/${fx.tenants.otherApp.id}?shopper_email=example`, {
    token: fx.tenants.owner.token,
  });
  assert.equal(other.status, 404);
});

test("each filter is served by an index (EXPLAIN, sequential scans off)", async () => {
  const plan = async (where: string) => {
    const db = fx.app.deps.db;
    // One transaction, so the setting holds for the EXPLAIN beside it on either engine.
    return db.transaction(async (tx) => {
      await tx.execute(sql.raw("set local enable_seqscan = off"));
      const result = (await tx.execute(sql.raw(`explain select id from payments where ${where}`))) as {
        rows: unknown[];
      };
      return (result.rows as { "QUERY PLAN": string }[]).map((row) => row["QUERY PLAN"]).join("\n");
    });
  };
  const app = fx.tenants.app.id;
  const cases: [string, RegExp][] = [
    [`lower(shopper_email) like '%lovelace%'`, /payments_email_trgm_idx/],
    // A part of the text on the index, the whole checked by a comparison no index serves (email-search.ts).
    [
      `lower(shopper_email) like '%r777@%' and shopper_email ilike '%shopper777@%'`,
      /payments_email_trgm_idx/,
    ],
    // Partial indexes (migration 0024: no entry where the column is null): a comparison with a
    // value proves the predicate, so the lookups that need them still find them.
    [`intent_id = 'pi_123'`, /payments_intent_idx/],
    [
      `kyc_id = 'kyc_123' and status in ('pending', 'hold', 'failed-captured', 'failed-transfers')`,
      /payments_kyc_open_idx/,
    ],
    // Where the database's collation is C the primary key serves a prefix as well as the pattern index.
    [
      `id like 'pay_01%'`,
      /Index (Only )?Scan using (payments_id_pattern_idx|payments_pkey)[^\n]*\n\s+Index Cond: \(\(id ~>=~|Index (Only )?Scan using payments_id_pattern_idx|Index Cond: \(\(id >= /,
    ],
    [
      `app_id = '${app}' and status = 'paid' order by created_at desc, id desc`,
      /payments_app_status_created_idx/,
    ],
    [`app_id = '${app}' and charge_currency = 'usd' and charge_amount >= 100`, /payments_app_charge_idx/],
    // As the list asks: newest first, one page.
    [
      `app_id = '${app}' and created_at >= now() - interval '1 day' order by created_at desc, id desc limit 20`,
      /payments_app_created_idx/,
    ],
  ];
  for (const [where, index] of cases) {
    const text = await plan(where);
    assert.match(text, index, `${where}\n${text}`);
    assert.doesNotMatch(text, /Seq Scan/, `${where}\n${text}`);
  }
});

async function listRaw(query: string) {
  return call(fx.app, "GET", `/payments/${fx.tenants.app.id}?${query}`, { token: fx.tenants.owner.token });
}

/** A range's payments: newest first, and the same ones walked by page number and by cursor, each once. */
async function assertWalked(range: string, count: number) {
  const appId = fx.tenants.app.id;
  const token = fx.tenants.owner.token;
  const whole = await list(`${range}&limit=100`);
  assert.equal(whole.items.length, count, range);
  assert.equal(whole.total, count, range);
  const created = await Promise.all(
    whole.items.map(async (item) => {
      const answer = await call(fx.app, "GET", `/payments/${appId}/${item.id}`, { token });
      return (expectStatus(answer, 200) as { created_at: string }).created_at;
    }),
  );
  assert.deepEqual(created, [...created].sort().reverse(), `${range}: newest first`);
  const byNumber = [];
  for (let page = 1; page <= Math.ceil(count / 2); page++) {
    byNumber.push(...(await list(`${range}&limit=2&page=${page}`)).items);
  }
  assert.deepEqual(
    byNumber.map((item) => item.id),
    whole.items.map((item) => item.id),
    `${range}: by page number`,
  );
  const byCursor = [];
  let after: string | undefined;
  do {
    const { items } = await list(`${range}&limit=3${after ? `&starting_after=${after}` : ""}`);
    byCursor.push(...items);
    after = items.length === 3 ? items[2].id : undefined;
  } while (after);
  assert.deepEqual(
    byCursor.map((item) => item.id),
    whole.items.map((item) => item.id),
    `${range}: by cursor`,
  );
  const before = await list(`${range}&limit=2&ending_before=${whole.items[3].id}`);
  assert.deepEqual(
    before.items.map((item) => item.id),
    whole.items.slice(1, 3).map((item) => item.id),
    `${range}: backwards`,
  );
}

test("an amount range reads newest first, by page and by cursor, each payment once", async () => {
  // Its index finds payments by amount: the page's keys are ordered before their rows are read
  // (`keysFirst`). Two more mugs, so the range holds four payments of the same amount, and two of
  // a price a cent dearer, one either side of them in time.
  const token = fx.tenants.owner.token;
  const appId = fx.tenants.app.id;
  const dearer = await createPrice(fx.app, token, appId, { name: "Mug, signed", amount: 12.01 });
  const made = [];
  for (const [price, email] of [
    [dearer, "hedy@example.com"],
    [mug, "ida@example.com"],
    [mug, "joan@example.com"],
    [dearer, "kathleen@example.com"],
  ] as const) {
    made.push(
      await createPayment(fx.app, token, appId, {
        price_id: price.id,
        payment_provider: "card",
        shopper_email: email,
      }),
    );
  }
  const least = made[1].final_amount;
  const most = made[0].final_amount;
  assert.ok(Number(most) > Number(least) && Number(most) - Number(least) < 1, `${least} to ${most}`);
  // A wide range picks its keys from the whole range (`keysFirst`).
  await assertWalked(`currency=usd&amount[gte]=1&amount[lte]=${least}`, 4);
  await assertWalked(`currency=usd&amount[gte]=1&amount[lte]=${most}`, 6);
  // A range of a few cents reads amount by amount, each amount newest first (`keysEach`).
  await assertWalked(`currency=usd&amount[gte]=${least}&amount[lte]=${most}`, 6);
  await assertWalked(`currency=usd&amount[gte]=${least}&amount[lte]=${least}`, 4);
  // Bounds the wrong way round find nothing, on either path.
  assert.deepEqual((await list(`currency=usd&amount[gte]=${most}&amount[lte]=${least}`)).items, []);
});
