import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { test } from "node:test";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { onPostgres } from "../helpers/app.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, createApp, expectStatus, signup } from "../helpers/http.ts";
import { createKyc, eventually, GOOD_BANK, postForm, SELLER_DETAILS } from "../helpers/kyc.ts";
import { bank, CARDS, card, confirm, waitForStatus } from "../helpers/payments.ts";
import { Receiver } from "../helpers/webhooks.ts";

// No secret at rest or in a log (docs/custody.md, "Secrets at rest"): the journeys that handle
// every kind of secret run through the API, then a full dump of the database (pg_dump on
// PostgreSQL, every table of every schema on the embedded engine) and every log line are searched
// for each secret the journeys saw. Hashes and sealed envelopes may be stored; the secret never.
const run = promisify(execFile);
const receiver = new Receiver();
const fx = useTestApp(
  { WEBHOOKS_ALLOW_LOOPBACK: "true" },
  {
    tenants: false,
    async setUp() {
      await receiver.start();
    },
    async tearDown() {
      await receiver.stop();
    },
  },
);

/** Every row of every table, as text: pg_dump's own output on PostgreSQL. */
async function dumpDatabase(): Promise<string> {
  if (onPostgres) {
    const { stdout } = await run("pg_dump", ["--data-only", "--no-owner", fx.app.connectionString!], {
      maxBuffer: 512 * 1024 * 1024,
    });
    return stdout;
  }
  const rowsOf = (result: unknown) =>
    ((result as { rows?: unknown[] }).rows ?? result) as Record<string, unknown>[];
  const tables = await fx.app.deps.db.execute(
    sql`select table_schema as schema, table_name as name from information_schema.tables
         where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
  );
  let text = "";
  for (const { schema, name } of rowsOf(tables)) {
    const rows = rowsOf(await fx.app.deps.db.execute(sql.raw(`select * from "${schema}"."${name}"`)));
    text += `-- ${schema}.${name}\n${JSON.stringify(rows, (_k, v) => (typeof v === "bigint" ? String(v) : v))}\n`;
  }
  return text;
}

test("after the journeys, neither the database nor the log holds any secret", {
  timeout: 240_000,
}, async () => {
  const secrets = new Map<string, string>();
  const owner = await signup(fx.app);
  secrets.set("session token", owner.token);
  const app = await createApp(fx.app, owner.token, { name: "Secrets" });
  expectStatus(
    await call(fx.app, "PATCH", `/apps/${app.id}`, {
      token: owner.token,
      body: { kyc_return_url: "https://shop.example.com/kyc", type: "marketplace", app_fee: 2.5 },
    }),
    200,
  );
  // Every create with an Idempotency-Key, as the SDK sends them: the stored answers hold the secrets.
  const idem = (name: string) => ({ "idempotency-key": `${name}-${Date.now()}` });
  const key = expectStatus(
    await call(fx.app, "POST", `/apps/${app.id}/api-keys`, {
      token: owner.token,
      body: { name: "server" },
      headers: idem("key"),
    }),
    201,
  );
  secrets.set("API key", key.key);
  const hook = expectStatus(
    await call(fx.app, "POST", `/webhooks/${app.id}`, {
      token: key.key,
      body: { url: receiver.url, events: ["payment.*", "kyc.*"] },
      headers: idem("hook"),
    }),
    201,
  );
  secrets.set("webhook secret", hook.secret);
  const invited = expectStatus(
    await call(fx.app, "POST", `/members/${app.id}`, {
      token: owner.token,
      body: { email: "invitee@example.com", role: "developer" },
      headers: idem("invite"),
    }),
    201,
  );
  secrets.set("invitation token", invited.invite_token);

  const price = expectStatus(
    await call(fx.app, "POST", `/prices/${app.id}`, {
      token: key.key,
      body: { name: "Ticket", amount: 10, currency: "usd" },
    }),
    201,
  );
  const paid = expectStatus(
    await call(fx.app, "POST", `/payments/${app.id}`, {
      token: key.key,
      body: { price_id: price.id, payment_provider: "card" },
      headers: idem("pay"),
    }),
    201,
  );
  secrets.set("payment token", paid.payment_token);
  secrets.set("card number", CARDS.ok);
  expectStatus(await confirm(fx.app, key.key, app.id, paid.id, card(CARDS.ok)), 200);
  await waitForStatus(fx.app, key.key, app.id, paid.id, "paid");
  expectStatus(
    await call(fx.app, "POST", `/payments/${app.id}/${paid.id}/refund`, {
      token: key.key,
      body: {},
      headers: idem("refund"),
    }),
    200,
  );
  const debit = expectStatus(
    await call(fx.app, "POST", `/payments/${app.id}`, {
      token: key.key,
      body: { price_id: price.id, payment_provider: "us_bank_account" },
      headers: idem("debit"),
    }),
    201,
  );
  secrets.set("second payment token", debit.payment_token);

  expectStatus(await confirm(fx.app, key.key, app.id, debit.id, bank("000123456789")), 200);

  // A seller through the KYC widget, as a seller does it: the details, then a bank account.
  const kyc = expectStatus(
    await createKyc(fx.app, app.id, key.key, {
      identifier: "seller-1",
      email: SELLER_DETAILS.email,
      account_type: "custom",
    }),
    201,
  ).data;
  secrets.set("KYC edit token", kyc.edit_token);
  secrets.set("seller's bank account number", GOOD_BANK.account_number); // the sandbox's one test number
  expectStatus(await postForm(fx.app, `/kyc/${kyc.edit_token}/details`, SELLER_DETAILS), 303);
  expectStatus(await postForm(fx.app, `/kyc/${kyc.edit_token}/bank-account`, GOOD_BANK), 303);
  await eventually(async () => {
    const answer = expectStatus(
      await call(fx.app, "GET", `/apps/${app.id}/kycs/${kyc.id}`, { token: key.key }),
      200,
    );
    return answer.data.bank_accounts?.length === 1 ? true : undefined;
  }, 60_000);

  // Requests no route takes, carrying capability tokens in their paths: logged, masked.
  await call(fx.app, "TRACE", `/kyc/${kyc.edit_token}`);
  await call(fx.app, "GET", `/no-such-page/${paid.payment_token}?token=${invited.invite_token}`);
  await call(fx.app, "PROPFIND", `/invitations/${invited.invite_token}`);

  // The jobs that handle secrets have run: the invitation mailed, the webhooks delivered.
  await eventually(async () =>
    fx.app.mailer.sent.some((m) => m.to === "invitee@example.com") ? true : undefined,
  );
  await eventually(async () => (receiver.received.length >= 3 ? true : undefined));
  assert.ok(
    fx.app.mailer.sent.some((m) => m.text.includes(invited.invite_token)),
    "the invitation mail carries the token the create answered",
  );

  const dump = await dumpDatabase();
  assert.ok(dump.includes(paid.id) && dump.includes(app.id), "the dump holds the journeys' records");
  const logs = fx.app.logs.join("");
  assert.ok(logs.includes("[redacted]"), "the unmatched requests were logged, masked");
  for (const [what, secret] of secrets) {
    assert.ok(secret && secret.length >= 12, `${what} was seen`);
    assert.ok(!dump.includes(secret), `the database holds no ${what}`);
    assert.ok(!logs.includes(secret), `no log line holds the ${what}`);
  }
});
