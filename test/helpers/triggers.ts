import type { TestApp } from "./app.ts";
import { call, expectStatus } from "./http.ts";

// Sample triggers, one per chain, shared by the trigger tests.

export const EVM_ABI = JSON.stringify([
  {
    type: "function",
    name: "mintTo",
    stateMutability: "nonpayable",
    inputs: [
      { name: "to", type: "address" },
      { name: "amount", type: "uint256" },
      { name: "memo", type: "string" },
    ],
    outputs: [],
  },
  { type: "event", name: "Minted", inputs: [{ name: "to", type: "address", indexed: true }] },
]);

export const evmTrigger = (walletId: string) => ({
  name: "Mint tokens",
  wallet_id: walletId,
  call_data: {
    evm: {
      contract_id: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
      method_name: "mintTo",
      abi: EVM_ABI,
      gas_limit: "100000",
      data: [{ name: "memo", value: "order {{order_id}}" }],
      data_input: { to: "{{receiver}}", amount: "{{quantity}}" },
    },
  },
  params_data: {
    string: [
      { name: "receiver", desc: "Who receives", is_ethereum_address: true },
      { name: "order_id", optional: true },
    ],
    number: [{ name: "quantity", desc: "How many" }],
  },
});

export const nearTrigger = (walletId: string) => ({
  name: "Mint ticket",
  wallet_id: walletId,
  call_data: {
    near: {
      contract_id: "nft.example.testnet",
      method_name: "nft_mint",
      attached_deposit_amount: "10000000000000000000000",
      gas_amount: "100000000000000",
      data: { token_metadata: { title: "Ticket" } },
      data_input: { receiver_id: "{{receiver}}", token_id: "ticket-{{seat}}", extra: "{{extra}}" },
    },
  },
  params_data: {
    string: [{ name: "receiver", is_near_address: true }],
    number: [{ name: "seat" }],
    object: [
      {
        name: "extra",
        optional: true,
        nullable: true,
        value: [
          { string: { name: "note" } },
          { array: { name: "tags", value: { string: { name: "tag" } } } },
        ],
      },
    ],
  },
});

export const WAX_ABI = JSON.stringify({
  version: "eosio::abi/1.1",
  structs: [
    {
      name: "transfer",
      base: "",
      fields: [
        { name: "from", type: "name" },
        { name: "to", type: "name" },
        { name: "quantity", type: "asset" },
        { name: "memo", type: "string" },
      ],
    },
  ],
  actions: [{ name: "transfer", type: "transfer", ricardian_contract: "" }],
});

export const waxTrigger = (walletId: string) => ({
  name: "Send WAX",
  wallet_id: walletId,
  call_data: {
    wax: {
      contract_id: "eosio.token",
      method_name: "transfer",
      abi: WAX_ABI,
      template: JSON.stringify({
        from: "{{wallet}}",
        to: "{{to}}",
        quantity: "{{quantity}}",
        memo: "order {{order}}",
      }),
    },
  },
  params_data: { string: [{ name: "to" }, { name: "quantity" }, { name: "order" }] },
});

export const SPL_TOKEN = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";

export const solanaTrigger = (walletId: string) => ({
  name: "SPL transfer",
  wallet_id: walletId,
  call_data: {
    solana: {
      contract_id: SPL_TOKEN,
      method_name: "transfer",
      compute_units: "200000",
      abi: JSON.stringify({
        accounts: [
          { address: "{{source}}", writable: true },
          { address: "{{destination}}", writable: true },
          { address: "{{wallet}}", signer: true },
        ],
      }),
      data: [
        { name: "instruction", type: "u8", value: 3 },
        { name: "amount", type: "u64" },
        { name: "memo", type: "string", value: "paid" },
      ],
      data_input: { amount: "{{amount}}" },
    },
  },
  params_data: { number: [{ name: "amount" }], string: [{ name: "source" }, { name: "destination" }] },
});

/** A working trigger (on a new managed EVM wallet) of the app, for tests that need one to link to. */
export async function createTestTrigger(t: TestApp, token: string, appId: string) {
  return (await evmWalletTrigger(t, token, appId, { name: "Test wallet" })).trigger;
}

/** A new EVM wallet (managed unless `wallet` says otherwise) and an `evmTrigger` calling from it. */
export async function evmWalletTrigger(
  t: TestApp,
  token: string,
  appId: string,
  wallet: Record<string, unknown> = {},
) {
  const made = expectStatus(
    await call(t, "POST", `/wallets/${appId}`, { token, body: { name: "Minter", type: "evm", ...wallet } }),
    201,
  );
  const trigger = expectStatus(
    await call(t, "POST", `/triggers/${appId}`, { token, body: evmTrigger(made.id) }),
    201,
  );
  return { wallet: made, trigger };
}

/** A price whose trigger mints on EVM from a new wallet: what a chain payment test pays. */
export async function evmChainPrice(
  t: TestApp,
  token: string,
  appId: string,
  price: Record<string, unknown> = {},
  wallet: Record<string, unknown> = {},
) {
  const { wallet: made, trigger } = await evmWalletTrigger(t, token, appId, wallet);
  const answer = await call(t, "POST", `/prices/${appId}`, {
    token,
    body: {
      name: "Concert ticket",
      amount: 15,
      currency: "usd",
      trigger_id: trigger.id,
      chain: "evm",
      ...price,
    },
  });
  return { wallet: made, trigger, price: expectStatus(answer, 201) };
}
