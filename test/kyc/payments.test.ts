import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, test } from "node:test";
import { buildTestApp, type TestApp } from "../helpers/app.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { createKyc, kycFixture } from "../helpers/kyc.ts";

let t: TestApp;
let f: Awaited<ReturnType<typeof kycFixture>>;

before(async () => {
  t = await buildTestApp({ SECRETS_MASTER_KEY: randomBytes(32).toString("base64") });
  f = await kycFixture(t);
});
after(async () => t?.close());

test("PATCH active: false stops new payments for prices linked to the seller", async () => {
  const kyc = expectStatus(await createKyc(t, f.app.id, f.apiKey, { identifier: "seller-paid" }), 201).data;
  const price = expectStatus(
    await call(t, "POST", `/prices/${f.app.id}`, {
      token: f.apiKey,
      body: { name: "Print", amount: 10, currency: "usd", kyc_id: kyc.id },
    }),
    201,
  );
  const pay = () =>
    call(t, "POST", `/payments/${f.app.id}`, {
      token: f.apiKey,
      body: { price_id: price.id, payment_provider: "card" },
    });
  const kycUrl = `/apps/${f.app.id}/kycs/${kyc.id}`;
  expectStatus(await call(t, "PATCH", kycUrl, { token: f.apiKey, body: { active: false } }), 200);
  const refused = assertProblem(await pay(), 409, "conflict");
  assert.match(refused.detail, /deactivated/);
  expectStatus(await call(t, "PATCH", kycUrl, { token: f.apiKey, body: { active: true } }), 200);
  expectStatus(await pay(), 201);
});
