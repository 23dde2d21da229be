// Money and the on-chain call move together (docs/payments.md, "Once a call is signed" and "When
// the chain refuses the call"): a payment whose call may be on its way cannot be cancelled, and a
// call the node refuses ends the payment visibly instead of leaving it on hold.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { eq } from "drizzle-orm";
import { payments } from "../../src/modules/payments/tables.ts";
import { sandboxIntents } from "../../src/platform/providers/payments/sandbox/tables.ts";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { bank, CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { evmChainPrice } from "../helpers/triggers.ts";
import { newMasterKey } from "../helpers/wallets.ts";
import { Receiver } from "../helpers/webhooks.ts";

let price: any;
let wallet: any;
const receiver = new Receiver();

const RECEIVER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const input = (order: string) => ({
  params_data_input: { receiver: RECEIVER, quantity: 2, order_id: order },
});

// Sandbox chains on a fast clock: one confirmation a second, two needed.
const fx = useTestApp(
  {
    WEBHOOKS_ALLOW_LOOPBACK: "true",
    SECRETS_MASTER_KEY: newMasterKey(),
    EVM_TESTNET_CONFIRMATIONS: "2",
    EVM_TESTNET_BLOCK_SECONDS: "0.5",
  },
  {
    async setUp() {
      const url = await receiver.start();
      expectStatus(
        await call(fx.app, "POST", `/webhooks/${fx.tenants.app.id}`, {
          token: fx.tenants.owner.token,
          body: { url, events: ["payment.*"] },
        }),
        201,
      );
      ({ wallet, price } = await evmChainPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id));
    },
  },
);
after(() => receiver.stop());

const get = async (paymentId: string) =>
  expectStatus(
    await call(fx.app, "GET", `/payments/${fx.tenants.app.id}/${paymentId}`, {
      token: fx.tenants.owner.token,
    }),
    200,
  );
const cancel = (paymentId: string) =>
  call(fx.app, "POST", `/payments/${fx.tenants.app.id}/${paymentId}/cancel`, {
    token: fx.tenants.owner.token,
    body: {},
  });
const retry = (paymentId: string) =>
  call(fx.app, "POST", `/payments/${fx.tenants.app.id}/${paymentId}/retry`, {
    token: fx.tenants.owner.token,
    body: {},
  });

/** The webhook deliveries the receiver got for one payment, as `payment.<status>` types. */
const deliveredFor = (paymentId: string) =>
  receiver.received
    .map((r) => JSON.parse(r.body))
    .filter((e) => e.data?.id === paymentId)
    .map((e) => e.type as string);

async function intentOf(paymentId: string) {
  const [row] = await fx.app.deps.db.select().from(payments).where(eq(payments.id, paymentId));
  const [intent] = await fx.app.deps.db
    .select()
    .from(sandboxIntents)
    .where(eq(sandboxIntents.id, row.intentId!));
  return intent;
}

describe("once a contract call is signed, the chain's outcome decides", () => {
  test("cancelling while the call is on chain is 409 naming why; the call confirms and the payment is paid", async () => {
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
      trigger_data_input: input("sandbox:slow"),
    });
    assert.equal(payment.cancelable, true, "a new pending payment can be cancelled");
    expectStatus(
      await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, card(CARDS.ok)),
      200,
    );
    const sent = await eventually(async () => {
      const p = await get(payment.id);
      return p.status === "hold" && p.transaction_id ? p : undefined;
    });
    assert.equal(sent.cancelable, false, "the dashboard hides Cancel");

    const refused = assertProblem(await cancel(payment.id), 409, "invalid_state_transition");
    assert.match(refused.detail, /contract call was sent/);
    assert.match(refused.detail, /chain's outcome decides/);
    assert.ok(refused.detail.includes(sent.transaction_id), "the detail names the transaction");
    assert.equal((await get(payment.id)).status, "hold", "nothing changed");

    const paid = await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, "paid");
    assert.equal(paid.transaction_id, sent.transaction_id);
    assert.equal(paid.confirmation_status.confirmed, true);
    assert.ok(paid.confirmation_status.confirmations >= 2);
    assert.equal((await intentOf(payment.id)).status, "succeeded", "the hold was captured");
  });

  test("a card hold whose call was never signed can still be cancelled", async () => {
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
      trigger_data_input: input("C-1"),
    });
    const cancelled = expectStatus(await cancel(payment.id), 200);
    assert.equal(cancelled.status, "cancelled");
    assert.equal(cancelled.cancelable, false);
  });

  test("a reverted call keeps what was sent on the payment: transaction id and confirmations", async () => {
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
      trigger_data_input: input("sandbox:revert"),
    });
    expectStatus(
      await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, card(CARDS.ok)),
      200,
    );
    const cancelled = await waitForStatus(
      fx.app,
      fx.tenants.owner.token,
      fx.tenants.app.id,
      payment.id,
      "cancelled",
    );
    assert.match(cancelled.transaction_id, /^0x[0-9a-f]{64}$/);
    assert.ok(cancelled.confirmation_status.confirmations >= 1, "the revert's block is counted");
    assert.equal(cancelled.confirmation_status.confirmed, false);
    assert.match(cancelled.transaction_response.error.message, /revert/);
  });
});

describe("a call the node refuses ends the payment, visibly", () => {
  test("sandbox:unfunded: failed within a minute, the hold released, the error and wallet recorded, webhook and log", async () => {
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
      trigger_data_input: input("sandbox:unfunded"),
    });
    const started = Date.now();
    expectStatus(
      await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, card(CARDS.ok)),
      200,
    );
    const failed = await waitForStatus(
      fx.app,
      fx.tenants.owner.token,
      fx.tenants.app.id,
      payment.id,
      "failed",
    );
    assert.ok(Date.now() - started < 60_000);
    const error = failed.transaction_response.error;
    assert.equal(error.code, "insufficient_funds");
    assert.match(error.message, /insufficient funds for gas/);
    assert.equal(error.wallet_id, wallet.id);
    assert.equal(error.wallet_address, wallet.wallet_data.evm.account_id);
    assert.equal(error.retryable, true);
    assert.equal(failed.cancelable, false);

    const intent = await eventually(async () => {
      const found = await intentOf(payment.id);
      return found?.status === "canceled" ? found : undefined;
    });
    assert.equal(intent.amountReceived, 0n, "nothing charged");
    await eventually(() => deliveredFor(payment.id).includes("payment.failed"));
    const warning = await eventually(() =>
      fx.app.logs.find((line) => line.includes(payment.id) && line.includes('"level":40')),
    );
    assert.ok(warning.includes(wallet.wallet_data.evm.account_id), "the log line names the wallet");

    // The app's retry reopens it for the shopper to pay again (the hold is gone).
    const reopened = expectStatus(await retry(payment.id), 200);
    assert.equal(reopened.status, "pending");
    assert.equal(reopened.transaction_id, null);
    assert.equal(reopened.transaction_response.error, null);
  });

  test("a declined card's failed payment has no step to retry", async () => {
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
      trigger_data_input: input("D-1"),
    });
    expectStatus(
      await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, card(CARDS.declined)),
      200,
    );
    await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, "failed");
    assertProblem(await retry(payment.id), 409, "invalid_state_transition");
  });

  test("a collected bank debit whose call is refused is failed-captured with the error, and refundable", async () => {
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "us_bank_account",
      trigger_data_input: input("sandbox:unfunded"),
    });
    expectStatus(await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, bank()), 200);
    const failed = await waitForStatus(
      fx.app,
      fx.tenants.owner.token,
      fx.tenants.app.id,
      payment.id,
      "failed-captured",
    );
    assert.equal(failed.transaction_response.error.code, "insufficient_funds");
    await eventually(() => deliveredFor(payment.id).includes("payment.failed-captured"));
    const refunded = expectStatus(
      await call(fx.app, "POST", `/payments/${fx.tenants.app.id}/${payment.id}/refund`, {
        token: fx.tenants.owner.token,
        body: {},
      }),
      200,
    );
    assert.equal(refunded.status, "refunded");
  });
});
