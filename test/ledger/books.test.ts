import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, test } from "node:test";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { postLedger } from "../../src/modules/ledger/post.ts";
import { accountBalances } from "../../src/modules/ledger/service.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { eventually, kycFixture, onboardSeller } from "../helpers/kyc.ts";
import { checkBooks, lifeArb, live, SEED } from "../helpers/ledger-model.ts";
import { CARDS, card, confirm, waitForStatus } from "../helpers/payments.ts";

// The books through the API: a marketplace card payment held, captured, transferred and refunded
// in parts; balances, movements, the CSV report and the per-seller summary say the same; and the
// database itself refuses entries that are changed, removed or unbalanced.

let tenant: Awaited<ReturnType<typeof kycFixture>>;
let seller: any;

const fx = useTestApp(
  { SECRETS_MASTER_KEY: randomBytes(32).toString("base64") },
  {
    tenants: false,
    async setUp() {
      tenant = await kycFixture(fx.app);
      seller = await onboardSeller(fx.app, tenant.app.id, tenant.apiKey, "ledger-seller");
    },
  },
);

const api = (method: string, url: string, body?: unknown, headers?: Record<string, string>) =>
  call(fx.app, method, url, { token: tenant.apiKey, body, headers });
const cents = (major: number) => BigInt(Math.round(major * 100));
const minorOf = (decimal: string) => {
  const [whole, fraction = ""] = decimal.replace("-", "").split(".");
  const value = BigInt(whole) * 100n + BigInt((fraction + "00").slice(0, 2));
  return decimal.startsWith("-") ? -value : value;
};

async function paidPayment(amount: number, kycId: string | null = seller.id) {
  const price = expectStatus(
    await api("POST", `/prices/${tenant.app.id}`, {
      name: "Print",
      amount,
      currency: "usd",
      ...(kycId ? { kyc_id: kycId } : {}),
    }),
    201,
  );
  const created = expectStatus(
    await api("POST", `/payments/${tenant.app.id}`, { price_id: price.id, payment_provider: "card" }),
    201,
  );
  expectStatus(await confirm(fx.app, tenant.apiKey, tenant.app.id, created.id, card(CARDS.ok)), 200);
  return waitForStatus(fx.app, tenant.apiKey, tenant.app.id, created.id, "paid");
}

async function entriesOf(paymentId: string) {
  return expectStatus(
    await api("GET", `/balance-transactions/${tenant.app.id}?payment_id=${paymentId}&limit=100`),
    200,
  );
}

/** Per account, the sum of a payment's entries. */
async function accountsOf(paymentId: string) {
  const sums = new Map<string, bigint>();
  for (const e of await entriesOf(paymentId))
    sums.set(e.account, (sums.get(e.account) ?? 0n) + minorOf(e.amount));
  return Object.fromEntries([...sums].filter(([, v]) => v !== 0n));
}

function assertBalanced(entries: any[]) {
  const sums = new Map<string, bigint>();
  for (const e of entries) {
    const key = `${e.transaction_id} ${e.currency}`;
    sums.set(key, (sums.get(key) ?? 0n) + minorOf(e.amount));
  }
  for (const [key, sum] of sums) assert.equal(sum, 0n, `${key} sums to zero`);
}

describe("a marketplace card payment in the books", () => {
  test("hold, capture and transfer; partial refunds reverse the seller's transfer in proportion", async () => {
    const paid = await paidPayment(40);
    const item = paid.price_item;
    const [total, fee, platform, app, share] = [
      cents(item.amount_total),
      cents(item.processing_fee_amount),
      cents(item.amount_platform),
      cents(item.amount_app),
      cents(item.amount_seller),
    ];
    assert.equal(paid.amount_refunded, 0);
    assert.equal(paid.transfers.length, 1);
    assert.equal(paid.transfers[0].status, "paid");
    assert.equal(cents(paid.transfers[0].amount), share);
    assert.equal(paid.transfers[0].kyc_id, seller.id);
    assert.match(paid.transfers[0].id, /^tr_/);

    const entries = await entriesOf(paid.id);
    assertBalanced(entries);
    assert.deepEqual([...new Set(entries.map((e: any) => e.type))].sort(), ["capture", "hold", "transfer"]);
    assert.deepEqual(await accountsOf(paid.id), {
      shoppers: -total,
      provider_fees: fee,
      platform_share: platform,
      app_share: app,
      [`seller_paid:${seller.id}`]: share,
    });

    // A first partial refund: 10.00 of the charge, in the charge currency, as a string.
    const first = expectStatus(
      await api(
        "POST",
        `/payments/${tenant.app.id}/${paid.id}/refund`,
        { amount: "10" },
        { "idempotency-key": "r-1" },
      ),
      200,
    );
    assert.equal(first.status, "paid");
    assert.equal(first.amount_refunded, 10);
    // The same request again (same key) is answered the same, and refunds nothing more.
    const again = expectStatus(
      await api(
        "POST",
        `/payments/${tenant.app.id}/${paid.id}/refund`,
        { amount: "10" },
        { "idempotency-key": "r-1" },
      ),
      200,
    );
    assert.equal(again.amount_refunded, 10);

    // More than remains: 409 naming the remainder.
    const left = Number(((Number(total) - 1000) / 100).toFixed(2));
    const tooMuch = await api("POST", `/payments/${tenant.app.id}/${paid.id}/refund`, { amount: 1000 });
    assertProblem(tooMuch, 409, "conflict");
    assert.equal(tooMuch.body.amount_remaining, String(left));
    assert.match(tooMuch.body.detail, new RegExp(`only ${String(left).replace(".", "\\.")} usd`));
    assertProblem(
      await api("POST", `/payments/${tenant.app.id}/${paid.id}/refund`, { amount: 0 }),
      400,
      "validation_failed",
    );

    // The rest: omitted amount. Now refunded.
    const rest = expectStatus(await api("POST", `/payments/${tenant.app.id}/${paid.id}/refund`, {}), 200);
    assert.equal(rest.status, "refunded");
    assert.equal(cents(rest.amount_refunded), total);
    assertProblem(
      await api("POST", `/payments/${tenant.app.id}/${paid.id}/refund`, {}),
      409,
      "invalid_state_transition",
    );

    // The jobs make both refunds and take the seller's share back in two reversals.
    const settled = await eventually(async () => {
      const p = expectStatus(await api("GET", `/payments/${tenant.app.id}/${paid.id}`), 200);
      return p.transfers[0]?.reversals.length === 2 && p.transfers[0].status === "reversed" ? p : undefined;
    });
    const firstPart = (2n * share * 1000n + total) / (2n * total);
    assert.equal(cents(settled.transfers[0].reversals[0].amount), firstPart, "in proportion to 10.00");
    assert.equal(cents(settled.transfers[0].amount_reversed), share);
    const books = await eventually(async () => {
      const sums = await accountsOf(paid.id);
      return sums.provider_clearing === undefined && sums.refunds === total ? sums : undefined;
    });
    // The provider keeps its fee; the seller and the app give back all; the platform bears the fee.
    assert.deepEqual(books, { shoppers: -total, provider_fees: fee, platform_share: -fee, refunds: total });
    const all = await entriesOf(paid.id);
    assertBalanced(all);
    assert.equal(
      all.filter((e: any) => e.type === "refund_settled" && /^re_|^rf_|^[a-z]+_/.test(e.reference ?? ""))
        .length,
      4,
    );

    // The seller summary of the period: earned, refunded, transferred, reversed, nothing owed.
    const payouts = expectStatus(await api("GET", `/reports/${tenant.app.id}/seller-payouts`), 200);
    const mine = payouts.sellers.find((s: any) => s.kyc_id === seller.id);
    assert.equal(minorOf(mine.earned), share);
    assert.equal(minorOf(mine.refunded), share);
    assert.equal(minorOf(mine.transferred), share);
    assert.equal(minorOf(mine.reversed), share);
    assert.equal(mine.owed_at_end, "0");
  });

  test("an app-sold payment books the seller share as the app's; balances per currency", async () => {
    const paid = await paidPayment(5, null);
    const item = paid.price_item;
    assert.deepEqual(paid.transfers, []);
    // Settled before the next test lists the books: nothing is still being posted.
    assert.deepEqual(await accountsOf(paid.id), {
      shoppers: -cents(item.amount_total),
      provider_fees: cents(item.processing_fee_amount),
      platform_share: cents(item.amount_platform),
      app_share: cents(item.amount_app) + cents(item.amount_seller),
    });
    const balances = expectStatus(await api("GET", `/balances/${tenant.app.id}`), 200);
    assert.equal(balances.object, "balance");
    const usd = balances.balances.find((b: any) => b.currency === "usd");
    assert.ok(usd, "a usd balance");
    for (const field of ["available", "pending", "owed_to_sellers", "paid_to_sellers", "refunded"]) {
      assert.match(usd[field], /^-?\d+(\.\d+)?$/, `${field} is a decimal string`);
    }
    // Outsiders see nothing of it; developers read it like owners.
    assertProblem(
      await call(fx.app, "GET", `/balances/${tenant.app.id}`, { token: tenant.outsider.token }),
      404,
      "not_found",
    );
    expectStatus(
      await call(fx.app, "GET", `/balances/${tenant.app.id}`, { token: tenant.developer.token }),
      200,
    );
  });
});

describe("the list, its filters and the CSV report", () => {
  test("newest first with cursors and filters; the CSV has every entry of the period, RFC 4180", async () => {
    const all = expectStatus(await api("GET", `/balance-transactions/${tenant.app.id}?limit=100`), 200);
    const total = Number(
      (await api("GET", `/balance-transactions/${tenant.app.id}?limit=1`)).headers["x-total-count"],
    );
    assert.equal(all.length, total);
    const stamps = all.map((e: any) => e.created_at);
    assert.deepEqual(stamps, [...stamps].sort().reverse(), "newest first");
    const page1 = await api("GET", `/balance-transactions/${tenant.app.id}?limit=2`);
    assert.match(String(page1.headers.link), /rel="next"/);
    const page2 = expectStatus(
      await api("GET", `/balance-transactions/${tenant.app.id}?limit=2&starting_after=${page1.body[1].id}`),
      200,
    );
    assert.deepEqual(
      page2.map((e: any) => e.id),
      all.slice(2, 4).map((e: any) => e.id),
    );
    const captures = expectStatus(
      await api("GET", `/balance-transactions/${tenant.app.id}?type=capture&limit=100`),
      200,
    );
    assert.ok(captures.length > 0 && captures.every((e: any) => e.type === "capture"));
    const future = new Date(Date.now() + 86_400_000).toISOString();
    assert.deepEqual(
      expectStatus(await api("GET", `/balance-transactions/${tenant.app.id}?created[gte]=${future}`), 200),
      [],
    );
    assertProblem(
      await api("GET", `/balance-transactions/${tenant.app.id}?type=nope`),
      400,
      "validation_failed",
    );

    const csv = await api(
      "GET",
      `/reports/${tenant.app.id}/balance-transactions.csv?from=2000-01-01&to=${future}`,
    );
    assert.equal(csv.status, 200);
    assert.match(String(csv.headers["content-type"]), /^text\/csv/);
    const lines = csv.text.split("\r\n");
    assert.equal(lines.at(-1), "", "every line ends with CRLF");
    assert.equal(
      lines[0],
      "id,transaction_id,created_at_utc,type,account,currency,amount,payment_id,reference",
    );
    assert.equal(lines.length - 2, total);
    const ids = new Set(lines.slice(1, -1).map((l) => l.split(",")[0]));
    for (const e of all) assert.ok(ids.has(e.id), `${e.id} is in the CSV`);
    assert.match(lines[1], /,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z,/, "UTC timestamps");
    const empty = await api("GET", `/reports/${tenant.app.id}/balance-transactions.csv?from=${future}`);
    assert.equal(empty.text.split("\r\n").length, 2, "the header alone");
    assertProblem(
      await api("GET", `/reports/${tenant.app.id}/balance-transactions.csv?from=yesterday`),
      400,
      "validation_failed",
    );
  });
});

/** The database's own message, under the query error Drizzle wraps it in. */
const refusedWith = (pattern: RegExp) => (error: any) => {
  assert.match(String(error?.cause?.message ?? error?.message), pattern);
  return true;
};

describe("the database guards the books", () => {
  test("entries cannot be changed or removed, and an unbalanced transaction does not commit", async () => {
    const db = fx.app.deps.db;
    await assert.rejects(
      db.execute(sql`update ledger_entries set amount = amount + 1`),
      refusedWith(/immutable/),
    );
    await assert.rejects(db.execute(sql`delete from ledger_entries`), refusedWith(/immutable/));
    await assert.rejects(db.execute(sql`truncate ledger_entries`), refusedWith(/immutable/));
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into ledger_entries (id, transaction_id, line, app_id, account, currency, amount, type)
          values ('ble_x1', 'manual:1', 0, ${tenant.app.id}, 'app_share', 'usd', 100, 'capture'),
                 ('ble_x2', 'manual:1', 1, ${tenant.app.id}, 'shoppers', 'usd', -99, 'capture')`);
      }),
      refusedWith(/does not balance/),
    );
    // Balanced in one currency but not the other is refused too.
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into ledger_entries (id, transaction_id, line, app_id, account, currency, amount, type)
          values ('ble_y1', 'manual:2', 0, ${tenant.app.id}, 'app_share', 'usd', 100, 'capture'),
                 ('ble_y2', 'manual:2', 1, ${tenant.app.id}, 'shoppers', 'eur', -100, 'capture')`);
      }),
      refusedWith(/does not balance/),
    );
    const manual = await db.execute(
      sql`select count(*)::int as n from ledger_entries where transaction_id like 'manual:%'`,
    );
    const rows = ((manual as { rows?: { n: number }[] }).rows ?? manual) as { n: number }[];
    assert.equal(rows[0].n, 0);
  });
});

describe("the property model's books in the database", () => {
  test("the database takes a random batch's entries and its balances agree", async () => {
    {
      const [batch] = fc.sample(fc.array(lifeArb, { minLength: 20, maxLength: 20 }), {
        seed: SEED,
        numRuns: 1,
      });
      const lives = batch.map(([priced, steps], i) => live(i, priced, steps));
      const expected = checkBooks(lives);
      const at = new Date();
      // One transaction per life, each posted once and then again (a restart): the second is a no-op.
      for (const life of lives) {
        await fx.app.deps.db.transaction((tx) => postLedger(tx, life.lines, at));
        await fx.app.deps.db.transaction((tx) => postLedger(tx, life.lines, at));
      }
      const books = (await accountBalances(fx.app.deps.db, "app_prop")).get("usd") ?? new Map();
      const nonZero = (m: Map<string, bigint>) =>
        Object.fromEntries([...m].filter(([, v]) => v !== 0n).sort());
      assert.deepEqual(nonZero(books), nonZero(expected));
    }
  });
});
