import assert from "node:assert/strict";
import { test } from "node:test";
import { checkoutPolicy } from "../../src/modules/payments/checkout-page.ts";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { CARDS, card } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";
import { createTestTrigger } from "../helpers/triggers.ts";

let price: any;
const fx = useTestApp(
  {},
  {
    async setUp() {
      price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, { amount: 9.99 });
    },
  },
);

test("the shopper's calls need the payment's own token and see only their payment", async () => {
  const page = await call(fx.app, "GET", `/checkout/${price.id}`);
  assert.equal(page.status, 200);
  assert.match(String(page.headers["content-type"]), /text\/html/);
  assert.match(String(page.headers["content-security-policy"]), /script-src 'nonce-/);
  const created = expectStatus(
    await call(fx.app, "POST", `/checkout/${price.id}/payments`, {
      body: { email: "a@example.com", payment_provider: "card" },
    }),
    201,
  );
  const other = expectStatus(
    await call(fx.app, "POST", `/checkout/${price.id}/payments`, {
      body: { email: "b@example.com", payment_provider: "card" },
    }),
    201,
  );
  const url = `/checkout/${price.id}/payments/${created.id}`;
  assertProblem(
    await call(fx.app, "GET", url, { headers: { "x-payment-token": other.payment_token } }),
    404,
    "not_found",
  );
  assertProblem(
    await call(fx.app, "GET", url, { headers: { "x-payment-token": "pt_wrong-token-value" } }),
    404,
    "not_found",
  );
  assertProblem(await call(fx.app, "GET", url), 400, "validation_failed");
  const mine = { "x-payment-token": created.payment_token };
  const confirmed = expectStatus(
    await call(fx.app, "POST", `${url}/confirm`, { headers: mine, body: { payment_method: card(CARDS.ok) } }),
    200,
  );
  assert.equal(confirmed.status, "pending");
  const paid = await eventually(async () => {
    const p = expectStatus(await call(fx.app, "GET", url, { headers: mine }), 200);
    return p.status === "paid" ? p : undefined;
  });
  assert.deepEqual(Object.keys(paid).sort(), [
    "confirmation_status",
    "currency",
    "error",
    "final_amount",
    "id",
    "next_action",
    "requires_payment_method",
    "status",
    "summary",
    "transaction_id",
    "transaction_url",
  ]);
  const owned = expectStatus(
    await call(fx.app, "GET", `/payments/${fx.tenants.app.id}/${created.id}`, {
      token: fx.tenants.owner.token,
    }),
    200,
  );
  assert.deepEqual(paid.summary, {
    price: "$9.99",
    converted: null,
    fees: `$${owned.price_item.amount_transaction_fee.toFixed(2)}`,
    total: `$${owned.price_item.amount_total.toFixed(2)}`,
  });
  assert.equal(paid.final_amount, owned.price_item.amount_total);
  const unknownPrice = await call(fx.app, "POST", "/checkout/price_nope/payments", {
    body: { email: "a@example.com", payment_provider: "card" },
  });
  assertProblem(unknownPrice, 404, "not_found");
});

test("an HTML value cannot break out of the page", async () => {
  const hostile = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
    name: "</script><script>alert(1)</script>",
  });
  const page = await call(fx.app, "GET", `/checkout/${hostile.id}`);
  assert.ok(!page.text.includes("<script>alert(1)</script>"));
});

test("without Stripe the page loads nothing from outside: no Stripe.js, no frames, API calls to itself", async () => {
  const page = await call(fx.app, "GET", `/checkout/${price.id}`);
  const policy = String(page.headers["content-security-policy"]);
  assert.match(policy, /(^|; )script-src 'nonce-[^' ]+'(;|$)/, "script-src is the nonce alone");
  assert.match(policy, /(^|; )connect-src 'self'(;|$)/);
  assert.doesNotMatch(policy, /frame-src|https?:\/\//);
  assert.ok(!page.text.includes("stripe.com"));
  assert.match(page.text, /id="number"/, "the sandbox's own test-card fields");
});

test("Stripe's Stripe.js gets its documented origins, a stand-in only its own", () => {
  const stripe = checkoutPolicy("n0nce", "https://js.stripe.com/v3/");
  assert.match(stripe, /script-src 'nonce-n0nce' https:\/\/js\.stripe\.com;/);
  assert.match(stripe, /frame-src https:\/\/js\.stripe\.com;/);
  assert.match(stripe, /connect-src 'self' https:\/\/api\.stripe\.com;/);
  const standIn = checkoutPolicy("n0nce", "http://127.0.0.1:4567/v3/");
  assert.equal((standIn.match(/http:\/\/127\.0\.0\.1:4567/g) ?? []).length, 3);
  assert.doesNotMatch(standIn, /stripe\.com/);
  assert.doesNotMatch(checkoutPolicy("n0nce", null), /https?:|frame-src/);
});

test("the quote shows the price, the fees and the total before paying, per method and amount", async () => {
  const quote = expectStatus(await call(fx.app, "GET", `/checkout/${price.id}/quote`), 200);
  const item = expectStatus(
    await call(fx.app, "GET", `/prices/${fx.tenants.app.id}/${price.id}/price-item`, {
      token: fx.tenants.owner.token,
    }),
    200,
  );
  assert.equal(quote.total, `$${item.amount_total.toFixed(2)}`);
  assert.equal(quote.fees, `$${item.amount_transaction_fee.toFixed(2)}`);
  const bank = expectStatus(
    await call(fx.app, "GET", `/checkout/${price.id}/quote?payment_provider=us_bank_account`),
    200,
  );
  assert.notEqual(bank.total, quote.total, "each method has its own fees");
  const dynamic = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
    type: "dynamic",
    amount: 5,
  });
  const more = expectStatus(await call(fx.app, "GET", `/checkout/${dynamic.id}/quote?amount=20`), 200);
  assert.equal(more.price, "$20.00");
  const less = await call(fx.app, "GET", `/checkout/${dynamic.id}/quote?amount=1`);
  assert.equal(assertProblem(less, 400, "validation_failed").errors[0].path, "/query/amount");
  assertProblem(await call(fx.app, "GET", "/checkout/price_nope/quote"), 404, "not_found");
});

test("a declined card leaves the checkout's payment waiting; the next card pays the same payment", async () => {
  const created = expectStatus(
    await call(fx.app, "POST", `/checkout/${price.id}/payments`, {
      body: { email: "c@example.com", payment_provider: "card" },
    }),
    201,
  );
  const url = `/checkout/${price.id}/payments/${created.id}`;
  const mine = { "x-payment-token": created.payment_token };
  const confirmWith = (number: string) =>
    call(fx.app, "POST", `${url}/confirm`, { headers: mine, body: { payment_method: card(number) } });
  expectStatus(await confirmWith(CARDS.declined), 200);
  const declined = await eventually(async () => {
    const p = expectStatus(await call(fx.app, "GET", url, { headers: mine }), 200);
    return p.requires_payment_method && p.error ? p : undefined;
  });
  assert.equal(declined.status, "pending");
  assert.match(declined.error.message, /declined/i);
  const owned = expectStatus(
    await call(fx.app, "GET", `/payments/${fx.tenants.app.id}/${created.id}`, {
      token: fx.tenants.owner.token,
    }),
    200,
  );
  assert.equal(owned.status, "pending", "the app sees it waiting too");
  assert.equal(owned.transaction_response.error.decline_code, "generic_decline");
  const retried = expectStatus(await confirmWith(CARDS.ok), 200);
  assert.equal(retried.requires_payment_method, false);
  assert.equal(retried.error, null, "the old decline is not news while the new card is tried");
  await eventually(async () => {
    const p = expectStatus(await call(fx.app, "GET", url, { headers: mine }), 200);
    return p.status === "paid" ? p : undefined;
  });
});

test("a payment the shopper replaced is withdrawn; one being paid is not", async () => {
  const open = async () =>
    expectStatus(
      await call(fx.app, "POST", `/checkout/${price.id}/payments`, {
        body: { email: "d@example.com", payment_provider: "card" },
      }),
      201,
    );
  const first = await open();
  const cancelled = expectStatus(
    await call(fx.app, "POST", `/checkout/${price.id}/payments/${first.id}/cancel`, {
      headers: { "x-payment-token": first.payment_token },
    }),
    200,
  );
  assert.equal(cancelled.status, "cancelled");
  const second = await open();
  const headers = { "x-payment-token": second.payment_token };
  expectStatus(
    await call(fx.app, "POST", `/checkout/${price.id}/payments/${second.id}/confirm`, {
      headers,
      body: { payment_method: card(CARDS.ok) },
    }),
    200,
  );
  assertProblem(
    await call(fx.app, "POST", `/checkout/${price.id}/payments/${second.id}/cancel`, { headers }),
    409,
    "invalid_state_transition",
  );
  assertProblem(
    await call(fx.app, "POST", `/checkout/${price.id}/payments/${second.id}/cancel`, {
      headers: { "x-payment-token": first.payment_token },
    }),
    404,
    "not_found",
  );
});

test("an unknown, malformed or expired price answers an HTML page with its status, under the strict CSP", async () => {
  for (const id of ["price_nope", encodeURIComponent("<script>"), "x".repeat(99)]) {
    const page = await call(fx.app, "GET", `/checkout/${id}`);
    assert.equal(page.status, 404);
    assert.match(String(page.headers["content-type"]), /^text\/html/);
    assert.match(page.text, /<h1>Checkout not found<\/h1>/);
    assert.match(String(page.headers["content-security-policy"]), /^default-src 'none'; script-src 'nonce-/);
  }
  const expired = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
    name: "Gone <soon>",
  });
  expectStatus(
    await call(fx.app, "PATCH", `/prices/${fx.tenants.app.id}/${expired.id}`, {
      token: fx.tenants.owner.token,
      body: { expired: true },
    }),
    200,
  );
  const gone = await call(fx.app, "GET", `/checkout/${expired.id}`);
  assert.equal(gone.status, 410);
  assert.match(gone.text, /Gone &lt;soon&gt; can no longer be paid/);
});

test("the checkout takes the trigger's parameters and refuses bad ones before opening a payment", async () => {
  const trigger = await createTestTrigger(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
  const priced = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
    trigger_id: trigger.id,
  });
  const page = await call(fx.app, "GET", `/checkout/${priced.id}`);
  assert.match(page.text, /<label for="param-receiver">Receiver<\/label>/);
  assert.match(page.text, /<script nonce="[^"]+" src="\/assets\/trigger-form\.js"><\/script>/);
  const script = await call(fx.app, "GET", "/assets/trigger-form.js");
  assert.match(String(script.headers["content-type"]), /^text\/javascript/);
  assert.match(script.text, /window\.TriggerForm = /);
  const pay = (params_data_input: unknown) =>
    call(fx.app, "POST", `/checkout/${priced.id}/payments`, {
      body: { email: "e@example.com", payment_provider: "card", trigger_data_input: { params_data_input } },
    });
  const refused = assertProblem(await pay({ receiver: "0x12", quantity: 1 }), 400, "validation_failed");
  assert.equal(refused.errors[0].path, "/body/trigger_data_input/params_data_input/receiver");
  const listed = expectStatus(
    await call(fx.app, "GET", `/payments/${fx.tenants.app.id}?price_id=${priced.id}`, {
      token: fx.tenants.owner.token,
    }),
    200,
  );
  assert.equal(listed.length, 0, "no payment was opened");
  const input = { receiver: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", quantity: 2 };
  const created = expectStatus(await pay(input), 201);
  const owned = expectStatus(
    await call(fx.app, "GET", `/payments/${fx.tenants.app.id}/${created.id}`, {
      token: fx.tenants.owner.token,
    }),
    200,
  );
  assert.deepEqual(owned.trigger_data_input, { params_data_input: input });
});
