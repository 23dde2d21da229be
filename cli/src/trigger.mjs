// `payments trigger <event>`: makes the service emit an event for real, in sandbox mode, through
// the public API as an integrator's server would: a price, a payment of it, and the sandbox's test
// card (or a cancel, or a refund). Nothing is charged: the sandbox provider stands in for the bank.
import { connection } from "./client.mjs";
import { UsageError } from "./usage-error.mjs";

const OK_CARD = "4242424242424242";
const DECLINED_CARD = "4000000000000002";
const card = (number) => ({ type: "card", number, exp_month: 12, exp_year: 2030, cvc: "123" });

/** Each event this command can make happen, and the payment status that shows it happened. */
const RECIPES = {
  "payment.pending": { card: undefined, after: undefined, status: "pending" },
  "payment.paid": { card: OK_CARD, after: undefined, status: "paid" },
  "payment.failed": { card: DECLINED_CARD, after: undefined, status: "failed" },
  "payment.cancelled": { card: undefined, after: "cancel", status: "cancelled" },
  "payment.refunded": { card: OK_CARD, after: "refund", status: "refunded" },
};
export const TRIGGERS = Object.keys(RECIPES);

/** Jobs move a confirmed payment on: its status is read until it is `status` (a minute at most). */
async function waitFor(client, appId, paymentId, status) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const payment = await client.payments.get(appId, paymentId);
    if (payment.status === status) return payment;
    if (Date.now() > deadline) {
      throw new Error(`Payment ${paymentId} is ${payment.status} after a minute, not ${status}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

export async function trigger(event, values, io) {
  if (!event) throw new UsageError(`trigger needs an event: ${TRIGGERS.join(", ")}`);
  const recipe = RECIPES[event];
  if (!recipe) throw new UsageError(`Cannot trigger ${event}; these can be: ${TRIGGERS.join(", ")}`);
  const { client, appId, apiKey } = await connection(values, io.env);
  // A live key would charge the test card's number as a real card: only sandbox keys trigger.
  if (!apiKey.startsWith("sk_test_")) throw new Error("trigger runs in test mode only: use an sk_test_ key");

  const price = await client.prices.create(appId, {
    name: `payments trigger ${event}`,
    amount: 10,
    currency: "usd",
  });
  io.out.write(`Created price ${price.id}\n`);
  const payment = await client.payments.create(appId, { price_id: price.id, payment_provider: "card" });
  io.out.write(`Created payment ${payment.id}\n`);
  if (recipe.card) {
    await client.payments.confirm(appId, payment.id, { payment_method: card(recipe.card) });
    io.out.write(`Confirmed it with the test card ${recipe.card}\n`);
  }
  if (recipe.after === "cancel")
    await client.payments.cancel(appId, payment.id, { reason: "payments trigger" });
  if (recipe.after === "refund") {
    await waitFor(client, appId, payment.id, "paid");
    await client.payments.refund(appId, payment.id, { reason: "payments trigger" });
  }
  await waitFor(client, appId, payment.id, recipe.status);
  io.out.write(`Trigger succeeded: payment ${payment.id} is ${recipe.status}, ${event} was emitted\n`);
}
