import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test } from "node:test";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import {
  createKyc,
  eventually,
  kycFixture,
  onboardSeller,
  postForm,
  SELLER_DETAILS,
} from "../helpers/kyc.ts";

let tenant: Awaited<ReturnType<typeof kycFixture>>;

const fx = useTestApp(
  { SECRETS_MASTER_KEY: randomBytes(32).toString("base64") },
  {
    tenants: false,
    async setUp() {
      tenant = await kycFixture(fx.app);
    },
  },
);

test("PATCH active: false stops new payments for prices linked to the seller", async () => {
  const kyc = await onboardSeller(fx.app, tenant.app.id, tenant.apiKey, "seller-paid");
  const price = expectStatus(
    await call(fx.app, "POST", `/prices/${tenant.app.id}`, {
      token: tenant.apiKey,
      body: { name: "Print", amount: 10, currency: "usd", kyc_id: kyc.id },
    }),
    201,
  );
  const pay = () =>
    call(fx.app, "POST", `/payments/${tenant.app.id}`, {
      token: tenant.apiKey,
      body: { price_id: price.id, payment_provider: "card" },
    });
  const kycUrl = `/apps/${tenant.app.id}/kycs/${kyc.id}`;
  expectStatus(await call(fx.app, "PATCH", kycUrl, { token: tenant.apiKey, body: { active: false } }), 200);
  const refused = assertProblem(await pay(), 409, "seller_not_payable");
  assert.match(refused.detail, /deactivated/);
  expectStatus(await call(fx.app, "PATCH", kycUrl, { token: tenant.apiKey, body: { active: true } }), 200);
  expectStatus(await pay(), 201);
});

test("a seller who has not finished onboarding cannot be paid yet: 409 seller_not_payable", async () => {
  const kyc = expectStatus(
    await createKyc(fx.app, tenant.app.id, tenant.apiKey, { identifier: "seller-halfway" }),
    201,
  ).data;
  const price = expectStatus(
    await call(fx.app, "POST", `/prices/${tenant.app.id}`, {
      token: tenant.apiKey,
      body: { name: "Print", amount: 10, currency: "usd", kyc_id: kyc.id },
    }),
    201,
  );
  expectStatus(await postForm(fx.app, `/kyc/${kyc.edit_token}/details`, SELLER_DETAILS), 303);
  await eventually(async () => {
    const answer = await call(fx.app, "GET", `/apps/${tenant.app.id}/kycs/${kyc.id}`, {
      token: tenant.apiKey,
    });
    return answer.body.data.details_submitted ? true : undefined;
  });
  const refused = assertProblem(
    await call(fx.app, "POST", `/payments/${tenant.app.id}`, {
      token: tenant.apiKey,
      body: { price_id: price.id, payment_provider: "card" },
    }),
    409,
    "seller_not_payable",
  );
  // What is still missing, in words: the document and the bank account, not the details given.
  assert.match(refused.detail, /an identity document/);
  assert.match(refused.detail, /a bank account for payouts/);
  assert.doesNotMatch(refused.detail, /personal details/);
});
