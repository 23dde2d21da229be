// Gas before it runs out (docs/wallets.md, "Balance"): a wallet answers its native balance, an
// app hears when a trigger's wallet falls under its threshold, and a price whose wallet cannot pay
// for gas is refused before any card is held. On the sandbox chain, through the API only: the
// sandbox faucet sets a wallet's balance.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { evmChainPrice } from "../helpers/triggers.ts";
import { newMasterKey } from "../helpers/wallets.ts";
import { Receiver } from "../helpers/webhooks.ts";

const receiver = new Receiver();
const input = {
  params_data_input: { receiver: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", quantity: 1, order_id: "B" },
};

const fx = useTestApp(
  {
    WEBHOOKS_ALLOW_LOOPBACK: "true",
    SECRETS_MASTER_KEY: newMasterKey(),
    EVM_TESTNET_CONFIRMATIONS: "1",
    EVM_TESTNET_BLOCK_SECONDS: "0.5",
  },
  {
    async setUp() {
      const url = await receiver.start();
      expectStatus(
        await call(fx.app, "POST", `/webhooks/${fx.tenants.app.id}`, {
          token: fx.tenants.owner.token,
          body: { url, events: ["wallet.*", "payment.failed"] },
        }),
        201,
      );
    },
  },
);
after(() => receiver.stop());

const base = () => `/wallets/${fx.tenants.app.id}`;
const owner = () => ({ token: fx.tenants.owner.token });

async function walletWithPrice(body: Record<string, unknown> = {}) {
  return evmChainPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, { amount: 12 }, body);
}

const faucet = async (walletId: string, balance: string) =>
  expectStatus(
    await call(fx.app, "POST", `/sandbox/wallets/${fx.tenants.app.id}/${walletId}/balance`, {
      ...owner(),
      body: { balance },
    }),
    200,
  );

const lowEvents = (walletId: string) =>
  receiver.received
    .map((r) => JSON.parse(r.body))
    .filter((e) => e.type === "wallet.balance_low" && e.data.wallet_id === walletId);

describe("wallet balances", () => {
  test("GET answers the wallet's native balance read from the chain, with when it was read", async () => {
    const { wallet } = await walletWithPrice();
    const read = expectStatus(await call(fx.app, "GET", `${base()}/${wallet.id}`, owner()), 200);
    assert.equal(read.balance, "100", "a sandbox account starts with 100 ETH");
    assert.equal(read.balance_currency, "eth");
    assert.ok(Date.parse(read.balance_checked_at) > Date.now() - 60_000);
    assert.equal(read.balance_low_threshold, "0.01", "the default threshold");
    assert.equal(read.balance_low, false);
    const listed = expectStatus(await call(fx.app, "GET", base(), owner()), 200);
    assert.equal(listed.find((w: { id: string }) => w.id === wallet.id).balance, "100");
  });

  test("a threshold with more decimals than the chain's currency is 400 naming the field", async () => {
    const answer = await call(fx.app, "POST", base(), {
      ...owner(),
      body: { name: "W", type: "solana", balance_low_threshold: "0.0000000001" },
    });
    const problem = assertProblem(answer, 400, "validation_failed");
    assert.equal(problem.errors[0].path, "/body/balance_low_threshold");
  });

  test("a price whose wallet cannot pay for gas is refused before the card is held, on the API and the checkout", async () => {
    const { wallet, price } = await walletWithPrice();
    const emptied = await faucet(wallet.id, "0");
    assert.equal(emptied.balance, "0");
    assert.equal(emptied.balance_low, true);

    const refused = assertProblem(
      await call(fx.app, "POST", `/payments/${fx.tenants.app.id}`, {
        ...owner(),
        body: { price_id: price.id, payment_provider: "card", trigger_data_input: input },
      }),
      409,
      "wallet_unfunded",
    );
    assert.match(refused.detail, /not enough to pay for gas/);
    assert.ok(refused.detail.includes(wallet.wallet_data.evm.account_id), "the wallet is named");
    assertProblem(
      await call(fx.app, "POST", `/checkout/${price.id}/payments`, {
        body: { email: "a@example.com", payment_provider: "card", trigger_data_input: input },
      }),
      409,
      "wallet_unfunded",
    );
    const none = expectStatus(
      await call(fx.app, "GET", `/payments/${fx.tenants.app.id}?price_id=${price.id}`, owner()),
      200,
    );
    assert.equal(none.length, 0, "no payment was opened");

    // The wallet used by a trigger fell under its threshold: the app was told, once.
    await eventually(() => lowEvents(wallet.id).length === 1);
    const [event] = lowEvents(wallet.id);
    assert.equal(event.data.balance, "0");
    assert.equal(event.data.balance_low_threshold, "0.01");
    assert.equal(event.data.currency, "eth");

    // Funded again: the price can be paid.
    await faucet(wallet.id, "1");
    const opened = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
      trigger_data_input: input,
    });
    assert.equal(opened.status, "pending");
  });

  test("wallet.balance_low when the fees paid take a trigger's wallet under the app's threshold", async () => {
    // 100 ETH, threshold just under it: the first mint's fee (0.001 ETH) crosses it.
    const { wallet, price } = await walletWithPrice({ balance_low_threshold: "99.9995" });
    const read = expectStatus(await call(fx.app, "GET", `${base()}/${wallet.id}`, owner()), 200);
    assert.equal(read.balance_low_threshold, "99.9995");
    assert.equal(read.balance_low, false);
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
      trigger_data_input: input,
    });
    expectStatus(
      await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, card(CARDS.ok)),
      200,
    );
    await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, "paid");
    await eventually(() => lowEvents(wallet.id).length === 1);
    assert.equal(lowEvents(wallet.id)[0].data.balance, "99.999");
    const after = expectStatus(await call(fx.app, "GET", `${base()}/${wallet.id}`, owner()), 200);
    assert.equal(after.balance, "99.999");
    assert.equal(after.balance_low, true);
  });

  test("a wallet emptied after the payment opened: the send is refused, failed; funded, retried, paid", async () => {
    const { wallet, price } = await walletWithPrice();
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
      trigger_data_input: input,
    });
    await faucet(wallet.id, "0");
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
    assert.equal(failed.transaction_response.error.code, "insufficient_funds");

    await faucet(wallet.id, "5");
    const reopened = expectStatus(
      await call(fx.app, "POST", `/payments/${fx.tenants.app.id}/${payment.id}/retry`, {
        ...owner(),
        body: {},
      }),
      200,
    );
    assert.equal(reopened.status, "pending");
    expectStatus(
      await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, card(CARDS.ok)),
      200,
    );
    const paid = await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, "paid");
    assert.match(paid.transaction_id, /^0x[0-9a-f]{64}$/);
  });
});
