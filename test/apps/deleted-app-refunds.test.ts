import assert from "node:assert/strict";
import { test } from "node:test";
import { eq } from "drizzle-orm";
import { payments } from "../../src/modules/payments/tables.ts";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, createApp, expectStatus, signup, verifyEmail } from "../helpers/http.ts";
import { CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";

// A deleted app's paid payments stay refundable by the users who owned it when it was deleted
// (docs/payments.md, Deleting an app), through /deleted-apps/{app_id}/payments/{payment_id}.

const fx = useTestApp();

test("a former owner reads and refunds a deleted app's payment; others and API keys read 404", async () => {
  const { owner, outsider } = fx.tenants;
  const coOwner = await signup(fx.app);
  // Only a verified address accepts an invitation (docs/accounts.md).
  await verifyEmail(fx.app, coOwner.user.email);
  const app = await createApp(fx.app, owner.token, { name: "Closing shop" });
  const invite = expectStatus(
    await call(fx.app, "POST", `/members/${app.id}`, {
      token: owner.token,
      body: { email: coOwner.user.email, role: "owner" },
    }),
    201,
  );
  expectStatus(
    await call(fx.app, "POST", "/members/accept", {
      token: coOwner.token,
      body: { invite_token: invite.invite_token },
    }),
    200,
  );
  const key = expectStatus(
    await call(fx.app, "POST", `/apps/${app.id}/api-keys`, { token: owner.token, body: { name: "server" } }),
    201,
  ).key;
  const price = await createPrice(fx.app, owner.token, app.id, { amount: 15, currency: "usd" });
  const sale = await createPayment(fx.app, owner.token, app.id, {
    price_id: price.id,
    payment_provider: "card",
  });
  expectStatus(await confirm(fx.app, owner.token, app.id, sale.id, card(CARDS.ok)), 200);
  await waitForStatus(fx.app, owner.token, app.id, sale.id, "paid");
  expectStatus(await call(fx.app, "DELETE", `/apps/${app.id}`, { token: owner.token }), 204);

  // The app's own routes are gone with it.
  assertProblem(
    await call(fx.app, "POST", `/payments/${app.id}/${sale.id}/refund`, { token: owner.token, body: {} }),
    404,
    "not_found",
  );
  const url = `/deleted-apps/${app.id}/payments/${sale.id}`;
  assertProblem(await call(fx.app, "GET", url, { token: outsider.token }), 404, "not_found");
  assertProblem(await call(fx.app, "GET", url, { token: key }), 401, "unauthenticated");
  assertProblem(
    await call(fx.app, "POST", `${url}/refund`, { token: outsider.token, body: {} }),
    404,
    "not_found",
  );
  const read = expectStatus(await call(fx.app, "GET", url, { token: owner.token }), 200);
  assert.equal(read.status, "paid");
  assert.equal(read.app_id, app.id);
  assert.equal(read.final_amount, sale.final_amount);

  // The co-owner refunds: the same move and job as a live app's refund.
  const refunded = expectStatus(
    await call(fx.app, "POST", `${url}/refund`, { token: coOwner.token, body: { reason: "closing down" } }),
    200,
  );
  assert.equal(refunded.status, "refunded");
  // The refund job gave the shopper their money back at the provider.
  const row = await eventually(async () => {
    const [found] = await fx.app.deps.db.select().from(payments).where(eq(payments.id, sale.id));
    return found.refundedAmount > 0n ? found : undefined;
  });
  assert.equal(row.refundedAmount, row.capturedAmount);
  assertProblem(
    await call(fx.app, "POST", `${url}/refund`, { token: owner.token, body: {} }),
    409,
    "invalid_state_transition",
  );
});
