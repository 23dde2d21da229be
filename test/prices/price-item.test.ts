import assert from "node:assert/strict";
import { test } from "node:test";
import { feeExamples } from "../helpers/fees.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, createApp, expectStatus, signup } from "../helpers/http.ts";
import { createPrice } from "../helpers/prices.ts";

let owner: Awaited<ReturnType<typeof signup>>;
let market: { id: string };

const fx = useTestApp(
  {},
  {
    async setUp() {
      owner = await signup(fx.app);
      market = await createApp(fx.app, owner.token, { type: "marketplace", app_fee: 5 });
    },
  },
);

const examples = () => new Map(feeExamples().map((e) => [e.title.split(":")[0], e.price_item]));

test("the preview answers docs/fees.md's examples under the default settings", async () => {
  const usd = await createPrice(fx.app, owner.token, market.id, { amount: 10 });
  const card = await call(fx.app, "GET", `/prices/${market.id}/${usd.id}/price-item`, { token: owner.token });
  assert.deepEqual(expectStatus(card, 200), examples().get("Example 1"));
  const near = await createPrice(fx.app, owner.token, market.id, { amount: 2.5, currency: "near" });
  const converted = await call(
    fx.app,
    "GET",
    `/prices/${market.id}/${near.id}/price-item?payment_provider=card`,
    {
      token: owner.token,
    },
  );
  assert.deepEqual(expectStatus(converted, 200), examples().get("Example 5"));
});

test("bank debits use their own fee settings", async () => {
  const price = await createPrice(fx.app, owner.token, market.id, { amount: 250 });
  const url = `/prices/${market.id}/${price.id}/price-item?payment_provider=us_bank_account`;
  const item = expectStatus(await call(fx.app, "GET", url, { token: owner.token }), 200);
  assert.equal(item.provider_processing_fee_percent, 0.8);
  assert.equal(item.provider_min_amount_fee, 0);
  assert.equal(item.amount_total, 252.02);
  assert.equal(item.amount_app, 12.5);
  assert.equal(item.amount_seller, 235);
});

test("a dynamic price previews the amount asked, never below its own", async () => {
  const price = await createPrice(fx.app, owner.token, market.id, { amount: 10, type: "dynamic" });
  const url = `/prices/${market.id}/${price.id}/price-item`;
  const item = expectStatus(await call(fx.app, "GET", `${url}?amount=100`, { token: owner.token }), 200);
  assert.equal(item.amount, 100);
  assert.equal(item.amount_total, 102.99);
  const below = await call(fx.app, "GET", `${url}?amount=9.99`, { token: owner.token });
  assert.equal(assertProblem(below, 400, "validation_failed").errors[0].path, "/query/amount");
  const excess = await call(fx.app, "GET", `${url}?amount=10.001`, { token: owner.token });
  assert.equal(assertProblem(excess, 400, "validation_failed").errors[0].path, "/query/amount");
  const fixed = await createPrice(fx.app, owner.token, market.id, { amount: 10 });
  const notDynamic = await call(fx.app, "GET", `/prices/${market.id}/${fixed.id}/price-item?amount=20`, {
    token: owner.token,
  });
  assert.equal(assertProblem(notDynamic, 400, "validation_failed").errors[0].path, "/query/amount");
});

test("a currency with no known rate cannot be charged: 409", async () => {
  const price = await createPrice(fx.app, owner.token, market.id, { amount: 10, currency: "gbp" });
  const answer = await call(fx.app, "GET", `/prices/${market.id}/${price.id}/price-item`, {
    token: owner.token,
  });
  assert.match(assertProblem(answer, 409, "conflict").detail, /No exchange rate from gbp to usd/);
});

test("security: 401 without credential, 404 across tenants, 400 for unknown parameters", async () => {
  const price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
  const url = `/prices/${fx.tenants.app.id}/${price.id}/price-item`;
  assertProblem(await call(fx.app, "GET", url), 401, "unauthenticated");
  assertProblem(await call(fx.app, "GET", url, { token: fx.tenants.outsider.token }), 404, "not_found");
  const foreign = `/prices/${fx.tenants.otherApp.id}/${price.id}/price-item`;
  assertProblem(await call(fx.app, "GET", foreign, { token: fx.tenants.outsider.token }), 404, "not_found");
  expectStatus(await call(fx.app, "GET", url, { token: fx.tenants.developer.token }), 200);
  for (const query of ["payment_provider=paypal", "currency=eur"]) {
    const answer = await call(fx.app, "GET", `${url}?${query}`, { token: fx.tenants.owner.token });
    assert.match(assertProblem(answer, 400, "validation_failed").errors[0].path, /^\/query\//);
  }
});
