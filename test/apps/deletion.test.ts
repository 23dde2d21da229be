import assert from "node:assert/strict";
import { test } from "node:test";
import { eq } from "drizzle-orm";
import { deletedApps } from "../../src/modules/apps/tables.ts";
import { paymentEvents, payments } from "../../src/modules/payments/tables.ts";
import { prices } from "../../src/modules/prices/tables.ts";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, createApp, expectStatus, signup } from "../helpers/http.ts";
import { bank, CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";

// What a delete keeps (docs/payments.md, "Deleting an app"): the journey in
// test/journeys/app-deletion.test.ts drives the API; this file looks behind it, at the records an
// operator finds afterwards and at the money they still let move.

let token: string;
let userId: string;
const fx = useTestApp(
  {},
  {
    tenants: false,
    async setUp() {
      const owner = await signup(fx.app);
      token = owner.token;
      userId = owner.user.id;
    },
  },
);

const row = async (paymentId: string) =>
  (await fx.app.deps.db.select().from(payments).where(eq(payments.id, paymentId)))[0];

test("a deleted app's payments and their events are kept, refundable, and still follow the bank", async () => {
  const app = await createApp(fx.app, token, { name: "Closing shop" });
  const price = await createPrice(fx.app, token, app.id, { amount: 15, currency: "usd" });
  const sale = await createPayment(fx.app, token, app.id, { price_id: price.id, payment_provider: "card" });
  expectStatus(await confirm(fx.app, token, app.id, sale.id, card(CARDS.ok)), 200);
  await waitForStatus(fx.app, token, app.id, sale.id, "paid");
  // A debit that its bank will return after it was collected: paid, then returned after the delete.
  const debit = await createPayment(fx.app, token, app.id, {
    price_id: price.id,
    payment_provider: "us_bank_account",
  });
  expectStatus(await confirm(fx.app, token, app.id, debit.id, bank("000111111113")), 200);
  await waitForStatus(fx.app, token, app.id, debit.id, "paid");
  const eventsBefore = await fx.app.deps.db
    .select()
    .from(paymentEvents)
    .where(eq(paymentEvents.paymentId, sale.id));

  expectStatus(await call(fx.app, "DELETE", `/apps/${app.id}`, { token }), 204);

  // The app is recorded as deleted; its price went with it, its payments and events did not.
  const [tombstone] = await fx.app.deps.db.select().from(deletedApps).where(eq(deletedApps.id, app.id));
  assert.equal(tombstone.name, "Closing shop");
  assert.equal(tombstone.createdBy, userId);
  assert.equal(tombstone.deletedBy, `user:${userId}`);
  assert.equal((await fx.app.deps.db.select().from(prices).where(eq(prices.id, price.id))).length, 0);
  const kept = await row(sale.id);
  assert.equal(kept.appId, app.id);
  assert.equal(kept.status, "paid");
  assert.ok(kept.intentId);
  const eventsAfter = await fx.app.deps.db
    .select()
    .from(paymentEvents)
    .where(eq(paymentEvents.paymentId, sale.id));
  assert.deepEqual(eventsAfter, eventsBefore);

  // The charge can still be refunded at the provider (by the operator: the app is gone).
  const refund = await fx.app.deps.paymentProviders.sandbox.refund(
    { intentId: kept.intentId! },
    { idempotencyKey: "operator-refund" },
  );
  assert.equal(refund.amount, kept.capturedAmount);

  // The bank's return arrives after the delete and is still applied to the kept payment.
  const returned = await eventually(async () => {
    const current = await row(debit.id);
    return current.status === "failed" ? current : undefined;
  }, 45_000);
  assert.equal((returned.transactionResponse.error as { code: string }).code, "account_closed");
});
