import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { checkoutPolicy } from "../../src/modules/payments/checkout-page.ts";
import { buildTestApp, type TestApp } from "../helpers/app.ts";
import { eventually } from "../helpers/contract.ts";
import { assertProblem, call, expectStatus, tenantFixture } from "../helpers/http.ts";
import { CARDS, card } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";

let t: TestApp;
let f: Awaited<ReturnType<typeof tenantFixture>>;
let price: any;
before(async () => {
  t = await buildTestApp();
  f = await tenantFixture(t);
  price = await createPrice(t, f.owner.token, f.app.id, { amount: 9.99 });
});
after(() => t.close());

test("the shopper's calls need the payment's own token and see only their payment", async () => {
  const page = await call(t, "GET", `/checkout/${price.id}`);
  assert.equal(page.status, 200);
  assert.match(String(page.headers["content-type"]), /text\/html/);
  assert.match(String(page.headers["content-security-policy"]), /script-src 'nonce-/);
  const created = expectStatus(
    await call(t, "POST", `/checkout/${price.id}/payments`, {
      body: { email: "a@example.com", payment_provider: "card" },
    }),
    201,
  );
  const other = expectStatus(
    await call(t, "POST", `/checkout/${price.id}/payments`, {
      body: { email: "b@example.com", payment_provider: "card" },
    }),
    201,
  );
  const url = `/checkout/${price.id}/payments/${created.id}`;
  assertProblem(
    await call(t, "GET", url, { headers: { "x-payment-token": other.payment_token } }),
    404,
    "not_found",
  );
  assertProblem(
    await call(t, "GET", url, { headers: { "x-payment-token": "pt_wrong-token-value" } }),
    404,
    "not_found",
  );
  assertProblem(await call(t, "GET", url), 400, "validation_failed");
  const mine = { "x-payment-token": created.payment_token };
  const confirmed = expectStatus(
    await call(t, "POST", `${url}/confirm`, { headers: mine, body: { payment_method: card(CARDS.ok) } }),
    200,
  );
  assert.equal(confirmed.status, "pending");
  const paid = await eventually(async () => {
    const p = expectStatus(await call(t, "GET", url, { headers: mine }), 200);
    return p.status === "paid" ? p : undefined;
  });
  assert.deepEqual(Object.keys(paid).sort(), [
    "confirmation_status",
    "currency",
    "error",
    "final_amount",
    "id",
    "next_action",
    "status",
    "transaction_id",
    "transaction_url",
  ]);
  const unknownPrice = await call(t, "POST", "/checkout/price_nope/payments", {
    body: { email: "a@example.com", payment_provider: "card" },
  });
  assertProblem(unknownPrice, 404, "not_found");
});

test("an HTML value cannot break out of the page", async () => {
  const hostile = await createPrice(t, f.owner.token, f.app.id, {
    name: "</script><script>alert(1)</script>",
  });
  const page = await call(t, "GET", `/checkout/${hostile.id}`);
  assert.ok(!page.text.includes("<script>alert(1)</script>"));
});

test("without Stripe the page loads nothing from outside: no Stripe.js, no frames, API calls to itself", async () => {
  const page = await call(t, "GET", `/checkout/${price.id}`);
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
