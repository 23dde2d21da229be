import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { eq } from "drizzle-orm";
import { MAX_CHAIN_SENDINGS } from "../../src/modules/payments/chain-step.ts";
import { payments } from "../../src/modules/payments/tables.ts";
import { sandboxIntents } from "../../src/platform/providers/payments/sandbox/tables.ts";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { bank, CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";
import { evmChainPrice, evmTrigger } from "../helpers/triggers.ts";
import { newMasterKey } from "../helpers/wallets.ts";

let price: any;

const RECEIVER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const input = (order: string) => ({
  params_data_input: { receiver: RECEIVER, quantity: 2, order_id: order },
});

// Sandbox chains on a fast clock: 3 confirmations, one a second.
const fx = useTestApp(
  {
    SECRETS_MASTER_KEY: newMasterKey(),
    EVM_TESTNET_CONFIRMATIONS: "3",
    EVM_TESTNET_BLOCK_SECONDS: "1",
  },
  {
    async setUp() {
      expectStatus(
        await call(fx.app, "PATCH", `/apps/${fx.tenants.app.id}`, {
          token: fx.tenants.owner.token,
          body: { use_explorer: true },
        }),
        200,
      );
      ({ price } = await evmChainPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id));
    },
  },
);

describe("payments that run a contract call", () => {
  test("card held, call sent and confirmed, then captured: paid with the transaction", async () => {
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
      trigger_data_input: input("A-1"),
    });
    expectStatus(
      await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, card(CARDS.ok)),
      200,
    );
    const paid = await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, "paid");
    assert.match(paid.transaction_id, /^0x[0-9a-f]{64}$/);
    assert.ok(paid.transaction_url.includes(paid.transaction_id), "an explorer link, as the app asked");
    assert.equal(paid.confirmation_status.confirmed, true);
    assert.equal(paid.confirmation_status.progress, 100);
    assert.ok(paid.confirmation_status.confirmations >= 3);
    assert.deepEqual(paid.trigger_data_input, input("A-1"));
    assert.ok(paid.transaction_response.evm, "the chain's answer is recorded");
  });

  test("a reverted call releases the card hold: cancelled, nothing charged, the reason recorded", async () => {
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
    assert.match(JSON.stringify(cancelled.transaction_response.error), /revert/);
  });

  test("a dropped transaction is signed and sent again: paid with the second one", async () => {
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
      trigger_data_input: input("A-drop-once"),
    });
    fx.app.deps.chains.sandbox.nextOutcome("drop"); // the next transaction signed is dropped
    expectStatus(
      await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, card(CARDS.ok)),
      200,
    );
    const paid = await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, "paid");
    const [row] = await fx.app.deps.db.select().from(payments).where(eq(payments.id, payment.id));
    assert.equal((row.sentTransaction as { sending?: number }).sending, 2, "the second sending landed");
    assert.equal((row.sentTransaction as { transactionId: string }).transactionId, paid.transaction_id);
  });

  test(`a transaction dropped ${MAX_CHAIN_SENDINGS} times fails the call: the card hold is released`, async () => {
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
      trigger_data_input: input("sandbox:drop"),
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
    assert.match(JSON.stringify(cancelled.transaction_response.error), /dropped/);
    const [row] = await fx.app.deps.db.select().from(payments).where(eq(payments.id, payment.id));
    assert.equal(row.sentTransaction, null);
  });

  test("a reverted call after a bank debit leaves failed-captured, which can be refunded", async () => {
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "us_bank_account",
      trigger_data_input: input("sandbox:revert"),
    });
    expectStatus(await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, bank()), 200);
    await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, "failed-captured");
    const refunded = expectStatus(
      await call(fx.app, "POST", `/payments/${fx.tenants.app.id}/${payment.id}/refund`, {
        token: fx.tenants.owner.token,
        body: {},
      }),
      200,
    );
    assert.equal(refunded.status, "refunded");
  });

  test("a wallet made for another chain id is refused before signing: cancelled, the hold released", async () => {
    const mainnetWallet = expectStatus(
      await call(fx.app, "POST", `/wallets/${fx.tenants.app.id}`, {
        token: fx.tenants.owner.token,
        body: { name: "Mainnet minter", type: "evm", wallet_data: { evm: { network_id: "1" } } },
      }),
      201,
    );
    const trigger = expectStatus(
      await call(fx.app, "POST", `/triggers/${fx.tenants.app.id}`, {
        token: fx.tenants.owner.token,
        body: evmTrigger(mainnetWallet.id),
      }),
      201,
    );
    // The price runs on the test network, Sepolia (11155111): not the wallet's chain.
    const testnetPrice = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      amount: 15,
      trigger_id: trigger.id,
      chain: "evm",
    });
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: testnetPrice.id,
      payment_provider: "card",
      trigger_data_input: input("W-1"),
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
    assert.equal(
      cancelled.transaction_response.error.message,
      'the wallet is for EVM network "1", but the price\'s testnet network is chain 11155111 (EVM_TESTNET_CHAIN_ID)',
    );
    assert.equal(cancelled.transaction_id, null);
    const [row] = await fx.app.deps.db.select().from(payments).where(eq(payments.id, payment.id));
    assert.equal(row.sentTransaction, null, "nothing was signed");
    const intent = await eventually(async () => {
      const [found] = await fx.app.deps.db
        .select()
        .from(sandboxIntents)
        .where(eq(sandboxIntents.id, row.intentId!));
      return found?.status === "canceled" ? found : undefined;
    });
    assert.equal(intent.amountReceived, 0n, "nothing charged");
  });

  test("parameters that do not fit the trigger are refused at creation, naming the parameter", async () => {
    const answer = await call(fx.app, "POST", `/payments/${fx.tenants.app.id}`, {
      token: fx.tenants.owner.token,
      body: {
        price_id: price.id,
        payment_provider: "card",
        trigger_data_input: { params_data_input: { receiver: "nope", quantity: 1 } },
      },
    });
    const problem = assertProblem(answer, 400, "validation_failed");
    assert.match(JSON.stringify(problem.errors), /receiver/);
  });
});
