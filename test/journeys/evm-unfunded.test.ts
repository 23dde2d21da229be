// A shop's minting wallet runs out of gas on a real node (anvil): the node refuses the send, the
// payment ends failed with the node's words, the card hold is released and the app is told; the
// shop funds the wallet, retries, and the shopper's payment goes through (docs/payments.md, "When
// the chain refuses the call").
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { eq } from "drizzle-orm";
import { createPublicClient, type Hex, http, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { payments } from "../../src/modules/payments/tables.ts";
import { sandboxIntents } from "../../src/platform/providers/payments/sandbox/tables.ts";
import { type Anvil, compileContract, startAnvil } from "../helpers/chains.ts";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, createApp, expectStatus, signup } from "../helpers/http.ts";
import { CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";
import { newMasterKey } from "../helpers/wallets.ts";
import { Receiver } from "../helpers/webhooks.ts";

const DEPLOYER = privateKeyToAccount("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
const RECEIVER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const TEN_ETH = "0x8ac7230489e80000";

let anvil: Anvil;
let chain: PublicClient;
let owner: Awaited<ReturnType<typeof signup>>;
let shop: any;
let ticket: { address: Hex; abi: any[] };
const receiver = new Receiver();

const fx = useTestApp(startChainWithTicket, {
  tenants: false,
  async setUp() {
    owner = await signup(fx.app);
    shop = await createApp(fx.app, owner.token, { name: "Ticket shop" });
    const url = await receiver.start();
    expectStatus(
      await call(fx.app, "POST", `/webhooks/${shop.id}`, {
        token: owner.token,
        body: { url, events: ["payment.*"] },
      }),
      201,
    );
  },
  async tearDown() {
    await receiver.stop();
  },
  afterClose: async () => anvil?.stop(),
});

/** Starts the node, deploys the ticket contract on it, and answers the app's settings for it. */
async function startChainWithTicket() {
  anvil = await startAnvil({ blockSeconds: 1 });
  chain = createPublicClient({ transport: http(anvil.url) });
  const compiled = compileContract("Ticket.sol", "Ticket");
  const hash = await anvil.rpc("eth_sendTransaction", [
    { from: DEPLOYER.address, data: compiled.bytecode, gas: "0xf4240" },
  ]);
  const deployed = await chain.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  ticket = { address: deployed.contractAddress!, abi: compiled.abi };
  return {
    WEBHOOKS_ALLOW_LOOPBACK: "true",
    SECRETS_MASTER_KEY: newMasterKey(),
    CHAINS: "real",
    EVM_TESTNET_RPC_URL: anvil.url,
    EVM_TESTNET_CHAIN_ID: "31337",
    EVM_TESTNET_CONFIRMATIONS: "1",
    EVM_TESTNET_BLOCK_SECONDS: "1",
    EVM_MAINNET_RPC_URL: anvil.url,
  };
}

/** A trigger minting `quantity` tickets to `receiver` from the wallet. */
const mintTrigger = (walletId: string) => ({
  name: "Mint tickets",
  wallet_id: walletId,
  call_data: {
    evm: {
      contract_id: ticket.address,
      method_name: "mint",
      abi: JSON.stringify(ticket.abi),
      gas_limit: "200000",
      data_input: { to: "{{receiver}}", amount: "{{quantity}}", memo: "order" },
    },
  },
  params_data: {
    string: [{ name: "receiver", is_ethereum_address: true }],
    number: [{ name: "quantity" }],
  },
});

const minted = async () =>
  chain.readContract({ address: ticket.address, abi: ticket.abi, functionName: "minted", args: [RECEIVER] });

describe("a wallet without gas on a real node", () => {
  test("the send is refused: failed with the error, hold released, webhook; funded, retried, paid", async () => {
    const wallet = expectStatus(
      await call(fx.app, "POST", `/wallets/${shop.id}`, {
        token: owner.token,
        body: { name: "Minter", type: "evm" },
      }),
      201,
    );
    const address = wallet.wallet_data.evm.account_id;
    await anvil.rpc("anvil_setBalance", [address, TEN_ETH]);
    const trigger = expectStatus(
      await call(fx.app, "POST", `/triggers/${shop.id}`, {
        token: owner.token,
        body: mintTrigger(wallet.id),
      }),
      201,
    );
    const price = await createPrice(fx.app, owner.token, shop.id, {
      amount: 12,
      trigger_id: trigger.id,
      chain: "evm",
    });
    const payment = await createPayment(fx.app, owner.token, shop.id, {
      price_id: price.id,
      payment_provider: "card",
      trigger_data_input: { params_data_input: { receiver: RECEIVER, quantity: 7 } },
    });
    // The wallet is drained after the payment opened (its balance was read funded): a few wei
    // left, far from what one mint's gas costs.
    await anvil.rpc("anvil_setBalance", [address, "0x3e8"]);
    expectStatus(await confirm(fx.app, owner.token, shop.id, payment.id, card(CARDS.ok)), 200);

    const failed = await waitForStatus(fx.app, owner.token, shop.id, payment.id, "failed");
    const error = failed.transaction_response.error;
    assert.equal(error.code, "insufficient_funds");
    assert.match(error.message, /insufficient funds/i);
    assert.equal(error.wallet_address, address);
    assert.equal(await minted(), 0n, "nothing was delivered");
    assert.equal(await chain.getTransactionCount({ address, blockTag: "pending" }), 0);
    const [row] = await fx.app.deps.db.select().from(payments).where(eq(payments.id, payment.id));
    const released = await eventually(async () => {
      const [intent] = await fx.app.deps.db
        .select()
        .from(sandboxIntents)
        .where(eq(sandboxIntents.id, row.intentId!));
      return intent?.status === "canceled" ? intent : undefined;
    });
    assert.equal(released.amountReceived, 0n, "the card was not charged");
    await eventually(() =>
      receiver.received.some((r) => {
        const event = JSON.parse(r.body);
        return event.type === "payment.failed" && event.data.id === payment.id;
      }),
    );
    assert.ok(
      fx.app.logs.some(
        (line) => line.includes('"level":40') && line.includes(address) && line.includes(payment.id),
      ),
      "a warning names the wallet",
    );

    // The shop funds its wallet and retries: the payment reopens, the shopper pays, it mints.
    await anvil.rpc("anvil_setBalance", [address, TEN_ETH]);
    const reopened = expectStatus(
      await call(fx.app, "POST", `/payments/${shop.id}/${payment.id}/retry`, {
        token: owner.token,
        body: {},
      }),
      200,
    );
    assert.equal(reopened.status, "pending");
    expectStatus(await confirm(fx.app, owner.token, shop.id, payment.id, card(CARDS.ok)), 200);
    const paid = await waitForStatus(fx.app, owner.token, shop.id, payment.id, "paid");
    assert.match(paid.transaction_id, /^0x[0-9a-f]{64}$/);
    assert.equal(paid.transaction_response.error, null);
    assert.equal(await minted(), 7n);

    // A wallet with nothing on the chain: GET reads its balance from the node, and a payment of a
    // price it would run is refused before any card is held.
    const empty = expectStatus(
      await call(fx.app, "POST", `/wallets/${shop.id}`, {
        token: owner.token,
        body: { name: "Empty", type: "evm" },
      }),
      201,
    );
    const read = expectStatus(
      await call(fx.app, "GET", `/wallets/${shop.id}/${empty.id}`, { token: owner.token }),
      200,
    );
    assert.equal(read.balance, "0");
    assert.equal(read.balance_low, true);
    const emptyTrigger = expectStatus(
      await call(fx.app, "POST", `/triggers/${shop.id}`, {
        token: owner.token,
        body: mintTrigger(empty.id),
      }),
      201,
    );
    const emptyPrice = await createPrice(fx.app, owner.token, shop.id, {
      amount: 12,
      trigger_id: emptyTrigger.id,
      chain: "evm",
    });
    const refused = await call(fx.app, "POST", `/payments/${shop.id}`, {
      token: owner.token,
      body: {
        price_id: emptyPrice.id,
        payment_provider: "card",
        trigger_data_input: { params_data_input: { receiver: RECEIVER, quantity: 1 } },
      },
    });
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.code, "wallet_unfunded");
  });
});
