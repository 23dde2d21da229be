// The authorize job stores a payment's provider intent with the provider's answer to its confirm
// (src/modules/payments/pipeline/authorize.ts, `applyIntent`), not in a write of its own before it.
// What that must keep: the intent is on the payment whichever way the answer goes, and a hold the
// provider answered to a payment that had meanwhile moved on (so never recorded) is released.
import assert from "node:assert/strict";
import { test } from "node:test";
import { eq } from "drizzle-orm";
import { applyIntent } from "../../src/modules/payments/pipeline/authorize.ts";
import { payments } from "../../src/modules/payments/tables.ts";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";

let price: { id: string };
const fx = useTestApp(
  {},
  {
    async setUp() {
      price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
        amount: 15,
        currency: "usd",
      });
    },
  },
);

const openCard = () =>
  createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
    price_id: price.id,
    payment_provider: "card",
  });
const confirmWith = async (paymentId: string, number: string) =>
  expectStatus(
    await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, paymentId, card(number)),
    200,
  );
const rowOf = async (id: string) =>
  (await fx.app.deps.db.select().from(payments).where(eq(payments.id, id)))[0];

test("the intent is stored with the answer: held, declined, 3-D Secure", async () => {
  for (const [number, status] of [
    [CARDS.ok, "paid"],
    [CARDS.declined, "failed"],
  ] as const) {
    const payment = await openCard();
    assert.equal((await rowOf(payment.id)).intentId, null, "no intent before the confirm");
    await confirmWith(payment.id, number);
    await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, status);
    const { intentId } = await rowOf(payment.id);
    assert.ok(intentId, `a ${status} payment names its intent`);
    const intent = await fx.app.deps.paymentProviders.sandbox.getIntent(intentId);
    assert.equal(intent.metadata.payment_id, payment.id);
  }
  const secured = await openCard();
  await confirmWith(secured.id, CARDS.threeDS);
  const waiting = await eventually(async () => {
    const row = await rowOf(secured.id);
    return row.authState === "action_required" ? row : undefined;
  });
  assert.ok(waiting.intentId, "a payment waiting for 3-D Secure names the intent the step is for");
  assert.match(String(waiting.nextAction?.url), new RegExp(waiting.intentId));
});

test("a hold answered to a payment that moved on meanwhile is released", async () => {
  const payment = await openCard();
  expectStatus(
    await call(fx.app, "POST", `/payments/${fx.tenants.app.id}/${payment.id}/cancel`, {
      token: fx.tenants.owner.token,
      body: {},
    }),
    200,
  );
  // The provider's answer to a confirm that was on its way (no route moves a payment being
  // authorised, so the race is played by hand): the card is held for a cancelled payment.
  const sandbox = fx.app.deps.paymentProviders.sandbox;
  const made = await sandbox.createIntent(
    { amount: 1500n, currency: "usd", method: "card", metadata: { payment_id: payment.id } },
    { idempotencyKey: `${payment.id}:intent` },
  );
  const held = await sandbox.confirmIntent(
    made.id,
    { paymentMethod: { type: "card", number: CARDS.ok, expMonth: 12, expYear: 2030, cvc: "123" } },
    { idempotencyKey: `${payment.id}:confirm:1` },
  );
  assert.equal(held.status, "requires_capture");
  await applyIntent(fx.app.deps, payment.id, held, "system");
  await eventually(async () => ((await sandbox.getIntent(made.id)).status === "canceled" ? true : undefined));
  const row = await rowOf(payment.id);
  assert.equal(row.status, "cancelled");
  assert.equal(row.intentId, null);
});
