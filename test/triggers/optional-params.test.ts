import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  addDecoderSizePrefix,
  getStructDecoder,
  getU8Decoder,
  getU32Decoder,
  getU64Decoder,
  getUtf8Decoder,
} from "@solana/kit";
import { ABI, Serializer } from "@wharfkit/antelope";
import { decodeFunctionData } from "viem";
import { createAuction, placeBid, shopperSession, waitForBid } from "../helpers/auctions.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";
import { SPL_TOKEN, WAX_ABI } from "../helpers/triggers.ts";
import { newMasterKey } from "../helpers/wallets.ts";

// An optional parameter left empty renders as its type's empty value ("" / 0 / false / []), or
// null when it is nullable, on every chain; one whose empty value the call cannot take is refused
// when the trigger is saved, naming it.

const RECEIVER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const MINT_ABI = JSON.stringify([
  {
    type: "function",
    name: "mint",
    stateMutability: "nonpayable",
    inputs: [
      { name: "to", type: "address" },
      { name: "amount", type: "uint256" },
      { name: "memo", type: "string" },
      { name: "gift", type: "bool" },
      { name: "ids", type: "uint256[]" },
    ],
    outputs: [],
  },
]);

const evmMint = (walletId: string) => ({
  name: "Mint",
  wallet_id: walletId,
  call_data: {
    evm: {
      contract_id: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
      method_name: "mint",
      abi: MINT_ABI,
      gas_limit: "200000",
      data_input: {
        to: "{{receiver}}",
        amount: "{{amount}}",
        memo: "{{memo}}",
        gift: "{{gift}}",
        ids: "{{ids}}",
      },
    },
  },
  params_data: {
    string: [
      { name: "receiver", is_ethereum_address: true },
      { name: "memo", optional: true },
    ],
    number: [{ name: "amount", optional: true }],
    boolean: [{ name: "gift", optional: true }],
    array: [{ name: "ids", optional: true, value: { number: { name: "id" } } }],
  },
});

const wallets: Record<string, string> = {};
const triggers: Record<string, string> = {};
let priceId = "";

const fx = useTestApp(
  {
    SECRETS_MASTER_KEY: newMasterKey(),
    EVM_TESTNET_CONFIRMATIONS: "1",
    EVM_TESTNET_BLOCK_SECONDS: "1",
  },
  {
    async setUp() {
      for (const [chain, body] of [
        ["evm", { type: "evm" }],
        ["near", { type: "near" }],
        ["wax", { type: "wax", wallet_data: { wax: { account: "shop.wam" } } }],
        ["solana", { type: "solana" }],
      ] as const) {
        wallets[chain] = expectStatus(
          await call(fx.app, "POST", `/wallets/${fx.tenants.app.id}`, {
            token: fx.tenants.owner.token,
            body: { name: chain, ...body },
          }),
          201,
        ).id;
      }
      const bodies = {
        evm: evmMint(wallets.evm),
        near: {
          name: "Mint ticket",
          wallet_id: wallets.near,
          call_data: {
            near: {
              contract_id: "nft.example.testnet",
              method_name: "nft_mint",
              data_input: { receiver_id: "{{receiver}}", memo: "{{memo}}", note: "{{note}}" },
            },
          },
          params_data: {
            string: [
              { name: "receiver", is_near_address: true },
              { name: "memo", optional: true },
              { name: "note", optional: true, nullable: true },
            ],
          },
        },
        wax: {
          name: "Send WAX",
          wallet_id: wallets.wax,
          call_data: {
            wax: {
              contract_id: "eosio.token",
              method_name: "transfer",
              abi: WAX_ABI,
              template: JSON.stringify({
                from: "{{wallet}}",
                to: "{{to}}",
                quantity: "{{quantity}}",
                memo: "{{memo}}",
              }),
            },
          },
          params_data: { string: [{ name: "to" }, { name: "quantity" }, { name: "memo", optional: true }] },
          params_data_input: { to: "buyer.wam", quantity: "1.00000000 WAX" },
        },
        solana: {
          name: "SPL transfer",
          wallet_id: wallets.solana,
          call_data: {
            solana: {
              contract_id: SPL_TOKEN,
              method_name: "transfer",
              abi: JSON.stringify({ accounts: [{ address: "{{wallet}}", signer: true }] }),
              data: [
                { name: "instruction", type: "u8", value: 3 },
                { name: "amount", type: "u64" },
                { name: "memo", type: "string" },
              ],
              data_input: { amount: "{{amount}}", memo: "{{memo}}" },
            },
          },
          params_data: {
            number: [{ name: "amount", optional: true }],
            string: { name: "memo", optional: true },
          },
        },
      };
      for (const [chain, body] of Object.entries(bodies)) {
        triggers[chain] = expectStatus(
          await call(fx.app, "POST", `/triggers/${fx.tenants.app.id}`, {
            token: fx.tenants.owner.token,
            body,
          }),
          201,
        ).id;
      }
      priceId = (
        await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
          amount: 12,
          trigger_id: triggers.evm,
          chain: "evm",
        })
      ).id;
    },
  },
);

const render = async (chain: string, params_data_input: unknown) =>
  expectStatus(
    await call(fx.app, "POST", `/triggers/${fx.tenants.app.id}/${triggers[chain]}/render`, {
      token: fx.tenants.owner.token,
      body: { params_data_input },
    }),
    200,
  );

describe("an optional parameter left empty, on each chain's /render", () => {
  test('EVM: "", 0, false and [] are encoded into the calldata', async () => {
    const answer = await render("evm", { receiver: RECEIVER });
    const decoded = decodeFunctionData({ abi: JSON.parse(MINT_ABI), data: answer.evm.data });
    assert.deepEqual(decoded.args, [RECEIVER, 0n, "", false, []]);
    const given = await render("evm", { receiver: RECEIVER, memo: "hi", amount: 2, gift: true, ids: [7] });
    assert.deepEqual(given.evm.args, [RECEIVER, "2", "hi", true, ["7"]]);
  });

  test('NEAR: "" for a string, null for a nullable one (JSON args have null)', async () => {
    const answer = await render("near", { receiver: "bob.testnet" });
    assert.deepEqual(answer.near.args, { receiver_id: "bob.testnet", memo: "", note: null });
  });

  test('WAX: the action\'s string field serializes as ""', async () => {
    const answer = await render("wax", { to: "buyer.wam", quantity: "1.50000000 WAX" });
    const decoded = Serializer.decode({
      data: answer.wax.data,
      abi: ABI.from(JSON.parse(WAX_ABI)),
      type: "transfer",
    });
    assert.equal(JSON.parse(JSON.stringify(decoded)).memo, "");
  });

  test("Solana: a u64 left empty is 0 and a string is empty", async () => {
    const answer = await render("solana", {});
    const decoder = getStructDecoder([
      ["instruction", getU8Decoder()],
      ["amount", getU64Decoder()],
      ["memo", addDecoderSizePrefix(getUtf8Decoder(), getU32Decoder())],
    ]);
    assert.deepEqual(decoder.decode(Buffer.from(answer.solana.data_base64, "base64")), {
      instruction: 3,
      amount: 0n,
      memo: "",
    });
  });
});

describe("where a shopper or the app leaves it empty", () => {
  test("the API create takes it, and the payment's call runs: paid", async () => {
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: priceId,
      payment_provider: "card",
      trigger_data_input: { params_data_input: { receiver: RECEIVER } },
    });
    expectStatus(
      await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, card(CARDS.ok)),
      200,
    );
    const paid = await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, "paid");
    assert.match(paid.transaction_id, /^0x[0-9a-f]{64}$/);
  });

  test("the hosted checkout's create (what its form posts) takes it", async () => {
    const answer = await call(fx.app, "POST", `/checkout/${priceId}/payments`, {
      body: {
        email: "ada@example.com",
        payment_provider: "card",
        trigger_data_input: { params_data_input: { receiver: RECEIVER } },
      },
    });
    assert.equal(expectStatus(answer, 201).status, "pending");
  });

  test("an auction bid (what the auction page's form posts) takes it", async () => {
    const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      trigger_id: triggers.evm,
    });
    const shopper = await shopperSession(fx.app, fx.tenants.app.id, auction.id, "kim@example.com");
    const bid = expectStatus(
      await placeBid(fx.app, shopper.token, fx.tenants.app.id, auction.id, 10, CARDS.ok, {
        trigger_data_input: { params_data_input: { receiver: RECEIVER } },
      }),
      202,
    );
    await waitForBid(fx.app, fx.tenants.owner.token, fx.tenants.app.id, auction.id, bid.id, "placed");
  });
});

describe("a descriptor that cannot be left empty is refused when the trigger is saved", () => {
  const save = (body: unknown) =>
    call(fx.app, "POST", `/triggers/${fx.tenants.app.id}`, { token: fx.tenants.owner.token, body });

  test("an optional string bound to an EVM address: 400 naming the descriptor", async () => {
    const body = evmMint(wallets.evm);
    body.params_data.string = [
      { name: "receiver", is_ethereum_address: true, optional: true },
      { name: "memo" },
    ] as never;
    const problem = assertProblem(await save(body), 400, "validation_failed");
    assert.equal(problem.errors[0].path, "/body/params_data/string/0/optional");
    assert.match(problem.errors[0].message, /receiver is optional/);
  });

  test("an optional, nullable string bound to an EVM string: null cannot be encoded, refused", async () => {
    const body = evmMint(wallets.evm);
    body.params_data.string = [
      { name: "receiver", is_ethereum_address: true },
      { name: "memo", optional: true, nullable: true } as never,
    ];
    const problem = assertProblem(await save(body), 400, "validation_failed");
    assert.equal(problem.errors[0].path, "/body/params_data/string/1/optional");
    assert.match(problem.errors[0].message, /null/);
  });

  test("a PATCH that makes it optional is checked the same way", async () => {
    const params_data = evmMint(wallets.evm).params_data;
    params_data.string[0] = { name: "receiver", is_ethereum_address: true, optional: true } as never;
    const answer = await call(fx.app, "PATCH", `/triggers/${fx.tenants.app.id}/${triggers.evm}`, {
      token: fx.tenants.owner.token,
      body: { params_data },
    });
    const problem = assertProblem(answer, 400, "validation_failed");
    assert.equal(problem.errors[0].path, "/body/params_data/string/0/optional");
  });
});
