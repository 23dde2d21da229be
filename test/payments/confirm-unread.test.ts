// A payment's first confirm, by the app's own API key or a member who may edit its payments, is one
// statement: the payment is not read first, the request is written only while it holds (src/modules/payments/commands.ts,
// `confirmPayment`). Anything else goes the way that reads the payment, and is refused as before.
// No worker runs here: the payments stay as each confirm left them.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { buildTestApp, type TestApp } from "../helpers/app.ts";
import type { Tenants } from "../helpers/fixture.ts";
import { call, expectStatus, tenantFixture } from "../helpers/http.ts";
import { bank, CARDS, card, confirm, createPayment } from "../helpers/payments.ts";
import { apiKeyOf, createPrice } from "../helpers/prices.ts";
import { paymentStatements } from "../helpers/statements.ts";

let price: { id: string };
let key: string;
let app: TestApp;
let tenants: Tenants;

before(async () => {
  // Tenants need their sign-up mail, which a job sends: made with a worker, then the process
  // restarted without one.
  const first = await buildTestApp();
  tenants = await tenantFixture(first);
  price = await createPrice(first, tenants.owner.token, tenants.app.id, { amount: 15 });
  key = await apiKeyOf(first, tenants.owner.token, tenants.app.id);
  app = await first.restart({ RUN_WORKER: "false" });
});
after(() => app?.close());

const newPayment = (method = "card") =>
  createPayment(app, key, tenants.app.id, { price_id: price.id, payment_provider: method });
const paymentUrl = (id: string) => `/payments/${tenants.app.id}/${id}`;

test("a key's first confirm of a payment is one statement, answered as a read answers it", async () => {
  // The first answer of the process reads the app and price once; the next ones remember them.
  expectStatus(await confirm(app, key, tenants.app.id, (await newPayment()).id, card(CARDS.ok)), 200);
  const payment = await newPayment();
  let answer: Record<string, unknown> = {};
  const statements = await paymentStatements(app, async () => {
    answer = expectStatus(await confirm(app, key, tenants.app.id, payment.id, card(CARDS.ok)), 200);
  });
  assert.equal(statements.length, 1, statements.join("\n---\n"));
  assert.match(statements[0], /^with "?updated"? as \(update "payments"/);
  assert.equal(answer.status, "pending");
  const read = expectStatus(await call(app, "GET", paymentUrl(payment.id), { token: key }), 200);
  assert.deepEqual(answer, read);
});

test("a member's first confirm is one statement too; an outsider's changes nothing", async () => {
  const payment = await newPayment();
  const outsider = await call(app, "POST", `${paymentUrl(payment.id)}/confirm`, {
    token: tenants.outsider.token,
    body: { payment_method: card(CARDS.ok) },
  });
  assert.equal(outsider.status, 404, "a user of another app");
  for (const who of [tenants.owner, tenants.developer]) {
    const mine = await newPayment();
    // The first answer to each caller reads their role once; the next ones remember it.
    expectStatus(await confirm(app, who.token, tenants.app.id, mine.id, card(CARDS.ok)), 200);
  }
  for (const [who, role] of [
    [tenants.owner, "can_delete"],
    [tenants.developer, "can_edit"],
  ] as const) {
    const mine = await newPayment();
    let answer: Record<string, any> = {};
    const statements = await paymentStatements(app, async () => {
      answer = expectStatus(await confirm(app, who.token, tenants.app.id, mine.id, card(CARDS.ok)), 200);
    });
    assert.equal(statements.length, 1, statements.join("\n---\n"));
    assert.equal(answer.app.permissions[role], true);
    assert.equal(answer.app.permissions.can_delete, role === "can_delete", "the caller's own role");
  }
  const untouched = expectStatus(await call(app, "GET", paymentUrl(payment.id), { token: key }), 200);
  assert.equal(untouched.status, "pending");
  assert.equal(untouched.cancelable, true, "never asked to authorise");
});

test("a second confirm, another app's key and a wrong method are refused as before, changing nothing", async () => {
  const payment = await newPayment();
  expectStatus(await confirm(app, key, tenants.app.id, payment.id, card(CARDS.ok)), 200);
  const again = await confirm(app, key, tenants.app.id, payment.id, card(CARDS.ok));
  assert.equal(again.status, 409);
  assert.equal(again.body.code, "invalid_state_transition");

  const other = await newPayment();
  const outsiderKey = await apiKeyOf(app, tenants.outsider.token, tenants.otherApp.id);
  const before = expectStatus(await call(app, "GET", paymentUrl(other.id), { token: key }), 200);
  const foreign = await call(app, "POST", `${paymentUrl(other.id)}/confirm`, {
    token: outsiderKey,
    body: { payment_method: card(CARDS.ok) },
  });
  assert.equal(foreign.status, 404, "another app's key");
  const inTheirApp = await confirm(app, outsiderKey, tenants.otherApp.id, other.id, card(CARDS.ok));
  assert.equal(inTheirApp.status, 404, "another app's key, the payment named under its own app");

  const wrongKind = await confirm(app, key, tenants.app.id, other.id, bank());
  assert.equal(wrongKind.status, 400);
  assert.equal(wrongKind.body.errors?.[0]?.path, "/body/payment_method/type");
  const badNumber = await confirm(app, key, tenants.app.id, other.id, card("1234"));
  assert.equal(badNumber.status, 400);
  assert.deepEqual(expectStatus(await call(app, "GET", paymentUrl(other.id), { token: key }), 200), before);

  const missing = await confirm(app, key, tenants.app.id, "pay_missing", card(CARDS.ok));
  assert.equal(missing.status, 404);
});

test("a bank payment confirmed by a key with account numbers is one statement too", async () => {
  const payment = await newPayment("us_bank_account");
  const statements = await paymentStatements(app, async () => {
    expectStatus(await confirm(app, key, tenants.app.id, payment.id, bank()), 200);
  });
  assert.equal(statements.length, 1, statements.join("\n---\n"));
});
