import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createPublicClient, encodeFunctionData, getAddress, type Hex, http, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { type Anvil, compileContract, startAnvil } from "../helpers/chains.ts";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, createApp, expectStatus, signup } from "../helpers/http.ts";
import { CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";
import { newMasterKey } from "../helpers/wallets.ts";

// A shop sells tickets minted by a contract on an EVM chain: here a real node, anvil, mining a
// block a second, declared as what it is — the test network is the local chain 31337. The same
// anvil also stands behind the main network, which is declared Ethereum (chain 1): a node that
// serves another chain than its network says, whose calls must be refused.

// anvil's development account 0 ("test … junk", no real funds): it deploys the contract.
const DEPLOYER = privateKeyToAccount("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
const RECEIVER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const TEN_ETH = "0x8ac7230489e80000";

let anvil: Anvil;
let chain: PublicClient;
let owner: Awaited<ReturnType<typeof signup>>;
let shop: any;
let ticket: { address: Hex; abi: any[] };

const fx = useTestApp(startChainWithTicket, {
  tenants: false,
  async setUp() {
    owner = await signup(fx.app);
    shop = await createApp(fx.app, owner.token, { name: "Ticket shop", use_explorer: true });
  },
  afterClose: async () => anvil?.stop(),
});

/** Starts the node, deploys the ticket contract on it, and answers the app's settings for it. */
async function startChainWithTicket() {
  anvil = await startAnvil({ blockSeconds: 1 });
  chain = createPublicClient({ transport: http(anvil.url) });
  // The contract is deployed the way anyone deploys one: a transaction to the node.
  const compiled = compileContract("Ticket.sol", "Ticket");
  const hash = await anvil.rpc("eth_sendTransaction", [
    { from: DEPLOYER.address, data: compiled.bytecode, gas: "0xf4240" },
  ]);
  const deployed = await chain.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  ticket = { address: deployed.contractAddress!, abi: compiled.abi };
  return {
    SECRETS_MASTER_KEY: newMasterKey(),
    CHAINS: "real",
    EVM_TESTNET_RPC_URL: anvil.url,
    EVM_TESTNET_CHAIN_ID: "31337",
    EVM_TESTNET_CONFIRMATIONS: "2",
    EVM_TESTNET_BLOCK_SECONDS: "1",
    EVM_MAINNET_RPC_URL: anvil.url,
  };
}

/** A wallet of the shop, funded for gas on the chain through the node's own JSON-RPC. */
async function fundedWallet(walletData?: Record<string, unknown>) {
  const wallet = expectStatus(
    await call(fx.app, "POST", `/wallets/${shop.id}`, {
      token: owner.token,
      body: { name: "Minter", type: "evm", ...(walletData ? { wallet_data: { evm: walletData } } : {}) },
    }),
    201,
  );
  await anvil.rpc("anvil_setBalance", [wallet.wallet_data.evm.account_id, TEN_ETH]);
  return wallet;
}

/** A price whose trigger mints `quantity` tickets to `receiver` with the order as memo. */
async function ticketPrice(walletId: string, price: Record<string, unknown> = {}) {
  const trigger = expectStatus(
    await call(fx.app, "POST", `/triggers/${shop.id}`, {
      token: owner.token,
      body: {
        name: "Mint tickets",
        wallet_id: walletId,
        call_data: {
          evm: {
            contract_id: ticket.address,
            method_name: "mint",
            abi: JSON.stringify(ticket.abi),
            gas_limit: "200000",
            data_input: { to: "{{receiver}}", amount: "{{quantity}}", memo: "order {{order_id}}" },
          },
        },
        params_data: {
          string: [
            { name: "receiver", desc: "Who receives the tickets", is_ethereum_address: true },
            { name: "order_id" },
          ],
          number: [{ name: "quantity", desc: "How many tickets" }],
        },
      },
    }),
    201,
  );
  return createPrice(fx.app, owner.token, shop.id, {
    amount: 25,
    trigger_id: trigger.id,
    chain: "evm",
    ...price,
  });
}

describe("an EVM price paid on a real node", () => {
  test("card 4242 held, the contract called from the shop's wallet, confirmed on chain, then paid", async () => {
    const wallet = await fundedWallet();
    assert.equal(wallet.wallet_data.evm.network_id, "31337", "a new wallet is for the test network's chain");
    const price = await ticketPrice(wallet.id);
    const input = { params_data_input: { receiver: RECEIVER, quantity: 3, order_id: "A-17" } };
    const payment = await createPayment(fx.app, owner.token, shop.id, {
      price_id: price.id,
      payment_provider: "card",
      trigger_data_input: input,
    });
    expectStatus(await confirm(fx.app, owner.token, shop.id, payment.id, card(CARDS.ok)), 200);

    const paid = await waitForStatus(fx.app, owner.token, shop.id, payment.id, "paid");
    assert.equal(paid.confirmation_status.confirmed, true);
    assert.equal(paid.confirmation_status.progress, 100);
    assert.equal(paid.confirmation_status.required_confirmations, 2);
    assert.ok(paid.confirmation_status.confirmations >= 2);
    assert.match(paid.transaction_id, /^0x[0-9a-f]{64}$/);
    assert.equal(
      paid.transaction_url,
      null,
      "the app asks for explorer links, but a local chain has no explorer",
    );
    assert.equal(paid.transaction_response.error, null);

    // The chain itself has the transaction the payment names: from the wallet, to the contract,
    // with the call the trigger describes.
    const hash = paid.transaction_id as Hex;
    const receipt = await chain.getTransactionReceipt({ hash });
    assert.equal(receipt.status, "success");
    assert.equal(getAddress(receipt.to!), getAddress(ticket.address));
    assert.equal(getAddress(receipt.from), getAddress(wallet.wallet_data.evm.account_id));
    const sent = await chain.getTransaction({ hash });
    assert.equal(
      sent.input,
      encodeFunctionData({ abi: ticket.abi, functionName: "mint", args: [RECEIVER, 3n, "order A-17"] }),
    );
    assert.equal(sent.chainId, 31337);
    const latest = await chain.getBlockNumber({ cacheTime: 0 });
    assert.ok(latest - receipt.blockNumber + 1n >= 2n, "confirmed only with 2 blocks on the chain");
    const minted = await chain.readContract({
      address: ticket.address,
      abi: ticket.abi,
      functionName: "minted",
      args: [RECEIVER],
    });
    assert.equal(minted, 3n);
  });

  test("a node serving another chain than its network is refused: nothing signed or sent, the hold released", async () => {
    // The operator is told at start-up which setting serves which chain.
    const warning = await eventually(() =>
      fx.app.logs.find(
        (line) => line.includes('"setting":"EVM_MAINNET_RPC_URL"') && line.includes('"level":40'),
      ),
    );
    const logged = JSON.parse(warning);
    assert.equal(logged.expected_chain_id, 1);
    assert.equal(logged.served_chain_id, 31337);

    const wallet = await fundedWallet({ network_id: "1", test_network: false });
    const price = await ticketPrice(wallet.id, { network_type: "mainnet" });
    const payment = await createPayment(fx.app, owner.token, shop.id, {
      price_id: price.id,
      payment_provider: "card",
      trigger_data_input: { params_data_input: { receiver: RECEIVER, quantity: 1, order_id: "B-1" } },
    });
    // A 3-D Secure card: its challenge page is the sandbox's public window on the card's intent.
    expectStatus(await confirm(fx.app, owner.token, shop.id, payment.id, card(CARDS.threeDS)), 200);
    const waiting = await eventually(async () => {
      const p = expectStatus(
        await call(fx.app, "GET", `/payments/${shop.id}/${payment.id}`, { token: owner.token }),
        200,
      );
      return p.next_action ? p : undefined;
    });
    const challenge = new URL(waiting.next_action.url).pathname;
    // What the challenge page's "Complete authentication" button sends.
    const authenticated = expectStatus(
      await call(fx.app, "POST", challenge, { body: { outcome: "pass" } }),
      200,
    );
    assert.equal(authenticated.status, "requires_capture", "the card is held");

    const cancelled = await waitForStatus(fx.app, owner.token, shop.id, payment.id, "cancelled");
    assert.equal(
      cancelled.transaction_response.error.message,
      "EVM_MAINNET_RPC_URL serves EVM chain 31337, but the mainnet network is chain 1 (EVM_MAINNET_CHAIN_ID): nothing was signed",
    );
    assert.equal(cancelled.transaction_response.error.reason, "rpc_chain_id_mismatch");
    assert.equal(cancelled.transaction_id, null);
    assert.equal(cancelled.transaction_url, null);
    assert.equal(cancelled.confirmation_status.confirmed, false);

    // Nothing reached the node from the wallet: no transaction mined or waiting.
    assert.equal(
      await chain.getTransactionCount({ address: wallet.wallet_data.evm.account_id, blockTag: "pending" }),
      0,
    );
    // The hold is released: the card's intent is canceled (the challenge now says so), not left
    // capturable. Answering the challenge again changes nothing either way.
    const released = await eventually(async () => {
      const answer = await call(fx.app, "POST", challenge, { body: { outcome: "pass" } });
      return /status is canceled/.test(answer.body?.detail ?? "") ? answer : undefined;
    });
    assert.equal(released.status, 409, released.text);
  });
});
