import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { sql } from "drizzle-orm";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { bank, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";

const fx = useTestApp();

/** A Luhn-valid card number no other test uses, so finding it anywhere means this test put it there. */
function uniqueCardNumber(): string {
  const body = `4${String(Date.now()).slice(-9)}${String(Math.floor(Math.random() * 1e5)).padStart(5, "0")}`;
  for (let check = 0; check < 10; check++) {
    const number = body + check;
    let sum = 0;
    for (let i = 0; i < number.length; i++) {
      let digit = Number(number[number.length - 1 - i]);
      if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
      sum += digit;
    }
    if (sum % 10 === 0) return number;
  }
  throw new Error("unreachable");
}

/** Every row of every table of the service and of its job queue, as text. */
async function everyRow(): Promise<string> {
  const tables = (await fx.app.deps.db.execute(
    sql`select table_schema as schema, table_name as name from information_schema.tables
         where table_schema in ('public', 'pgboss') and table_type = 'BASE TABLE'`,
  )) as unknown as { rows: { schema: string; name: string }[] };
  let text = "";
  for (const { schema, name } of tables.rows) {
    const rows = (await fx.app.deps.db.execute(
      sql.raw(`select row_to_json(r)::text as row from "${schema}"."${name}" r`),
    )) as unknown as { rows: { row: string }[] };
    text += rows.rows.map((r) => r.row).join("\n");
  }
  return text;
}

test("after sandbox payments by card and by bank account, no table, job or log line holds the numbers", async () => {
  const number = uniqueCardNumber();
  const cvc = "9731";
  const price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, { amount: 21 });
  const byCard = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
    price_id: price.id,
    payment_provider: "card",
  });
  const confirmed = await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, byCard.id, {
    type: "card",
    number,
    exp_month: 11,
    exp_year: 2031,
    cvc,
  });
  expectStatus(confirmed, 200);
  await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, byCard.id, "paid");
  const byBank = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
    price_id: price.id,
    payment_provider: "us_bank_account",
  });
  expectStatus(
    await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, byBank.id, bank("000123456789")),
    200,
  );
  await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, byBank.id, "paid");

  const stored = await everyRow();
  assert.ok(stored.includes(byCard.id), "the dump does hold the payments");
  assert.ok(stored.includes("pm_sbx_"), "the jobs carry a payment method id");
  for (const [what, secret] of [
    ["card number", number],
    ["bank account number", "000123456789"],
    ["security code", `"cvc":"${cvc}"`],
    ["card number field", '"number":"'],
    ["account number field", '"accountNumber"'],
  ]) {
    assert.ok(!stored.includes(secret), `no ${what} at rest`);
    assert.ok(!fx.app.logs.join("").includes(secret), `no ${what} in the log`);
  }
  // What is kept is what a receipt shows: the brand and the last four digits.
  const shown = expectStatus(
    await call(fx.app, "GET", `/payments/${fx.tenants.app.id}/${byCard.id}`, {
      token: fx.tenants.owner.token,
    }),
    200,
  );
  assert.ok(JSON.stringify(shown).includes(number.slice(-4)) || stored.includes(`•••• ${number.slice(-4)}`));
});

test("a card the sandbox does not take is refused at once, naming the field, and nothing is queued", async () => {
  const price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, { amount: 5 });
  const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
    price_id: price.id,
    payment_provider: "card",
  });
  const refused = await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, {
    type: "card",
    number: "4242424242424241",
    exp_month: 12,
    exp_year: 2031,
    cvc: "123",
  });
  assert.equal(refused.status, 400, refused.text);
  assert.equal(refused.body.errors[0].path, "/body/payment_method");
  const after = expectStatus(
    await call(fx.app, "GET", `/payments/${fx.tenants.app.id}/${payment.id}`, {
      token: fx.tenants.owner.token,
    }),
    200,
  );
  assert.equal(after.status, "pending", "the payment can still be paid with a good card");
});

test("the upgrade migration scrubs numbers an older release queued", async () => {
  const raw = {
    paymentId: "pay_old",
    attempt: 1,
    method: { type: "card", number: "4242424242424242", cvc: "123" },
  };
  const migration = readFileSync(
    new URL("../../drizzle/0007_scrub_raw_instruments.sql", import.meta.url),
    "utf8",
  );
  // In one transaction, rolled back: the outbox relay never sees the old row.
  const rolledBack = new Error("rolled back on purpose");
  const seen = await fx.app.deps.db
    .transaction(async (tx) => {
      await tx.execute(
        sql`insert into job_outbox (name, data) values ('payments.authorize', ${JSON.stringify(raw)}::jsonb)`,
      );
      for (const statement of migration.split("--> statement-breakpoint"))
        await tx.execute(sql.raw(statement));
      const rows = (await tx.execute(
        sql`select data::text as data from job_outbox where data->>'paymentId' = 'pay_old'`,
      )) as unknown as { rows: { data: string }[] };
      throw Object.assign(rolledBack, { rows: rows.rows });
    })
    .catch((error) => error.rows as { data: string }[]);
  assert.equal(seen.length, 1);
  assert.ok(!seen[0].data.includes("4242424242424242"));
  assert.match(seen[0].data, /pm_sbx_scrubbed/);
});
