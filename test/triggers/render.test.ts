import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
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
import { assertProblem, expectStatus, tenantFixture } from "../helpers/http.ts";
import {
  EVM_ABI,
  evmTrigger,
  nearTrigger,
  SPL_TOKEN,
  solanaTrigger,
  WAX_ABI,
  waxTrigger,
} from "../helpers/triggers.ts";
import { buildWalletTestApp, createWallet, type WalletTestApp } from "../helpers/wallets.ts";

let w: WalletTestApp;
let f: Awaited<ReturnType<typeof tenantFixture>>;
const wallet: Record<string, any> = {};
const trigger: Record<string, any> = {};

before(async () => {
  w = await buildWalletTestApp();
  f = await tenantFixture(w.t);
  for (const [chain, body] of [
    ["evm", { type: "evm" }],
    ["near", { type: "near" }],
    ["wax", { type: "wax", wallet_data: { wax: { account: "shop.wam" } } }],
    ["solana", { type: "solana" }],
  ] as const) {
    wallet[chain] = await createWallet(w, f.owner.token, f.app.id, body);
    await w.remember(wallet[chain].id);
  }
  const make = { evm: evmTrigger, near: nearTrigger, wax: waxTrigger, solana: solanaTrigger };
  for (const [chain, build] of Object.entries(make)) {
    const answer = await w.call("POST", `/triggers/${f.app.id}`, {
      token: f.owner.token,
      body: build(wallet[chain].id),
    });
    trigger[chain] = expectStatus(answer, 201);
  }
});
after(async () => {
  w.assertNoLeak();
  await w.t.close();
});

const render = (chain: string, params_data_input: unknown, token = f.owner.token) =>
  w.call("POST", `/triggers/${f.app.id}/${trigger[chain].id}/render`, { token, body: { params_data_input } });

const RECEIVER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("render: EVM calldata encoded from the ABI", () => {
  it("decodes back to the function and the parameters placed in it", async () => {
    const answer = expectStatus(
      await render("evm", { receiver: RECEIVER.toLowerCase(), quantity: 3, order_id: "A1" }),
      200,
    );
    assert.equal(answer.chain, "evm");
    assert.equal(answer.evm.to, "0x5FbDB2315678afecb367f032d93F642f64180aa3");
    assert.equal(answer.evm.from, wallet.evm.wallet_data.evm.account_id);
    assert.equal(answer.evm.gas_limit, "100000");
    const decoded = decodeFunctionData({ abi: JSON.parse(EVM_ABI), data: answer.evm.data });
    assert.equal(decoded.functionName, "mintTo");
    assert.deepEqual(decoded.args, [RECEIVER, 3n, "order A1"]);
    assert.deepEqual(answer.evm.args, [RECEIVER, "3", "order A1"]);
  });

  it("an optional parameter may be left out; huge integers stay exact", async () => {
    const answer = expectStatus(await render("evm", { receiver: RECEIVER, quantity: 2 ** 52 }), 200);
    const decoded = decodeFunctionData({ abi: JSON.parse(EVM_ABI), data: answer.evm.data });
    assert.deepEqual(decoded.args, [RECEIVER, 2n ** 52n, "order "]);
  });

  it("each input failure names its parameter", async () => {
    const cases: [unknown, string][] = [
      [{ quantity: 1 }, "/body/params_data_input/receiver"],
      [{ receiver: "0x123", quantity: 1 }, "/body/params_data_input/receiver"],
      [{ receiver: RECEIVER, quantity: "1" }, "/body/params_data_input/quantity"],
      [{ receiver: RECEIVER, quantity: 1.5 }, "/body/params_data_input/quantity"],
      [{ receiver: RECEIVER, quantity: -1 }, "/body/params_data_input/quantity"],
      [{ receiver: RECEIVER, quantity: 1, surprise: true }, "/body/params_data_input/surprise"],
      [{ receiver: null, quantity: 1 }, "/body/params_data_input/receiver"],
    ];
    for (const [input, path] of cases) {
      const problem = assertProblem(await render("evm", input), 400, "validation_failed");
      assert.ok(
        problem.errors.some((e: any) => e.path.startsWith(path)),
        `${JSON.stringify(input)}: ${JSON.stringify(problem.errors)}`,
      );
    }
  });
});

describe("render: NEAR function call", () => {
  it("JSON args from data and data_input, with gas and deposit", async () => {
    const input = { receiver: "bob.testnet", seat: 12, extra: { note: "aisle", tags: ["vip"] } };
    const answer = expectStatus(await render("near", input), 200);
    assert.deepEqual(answer.near, {
      signer_id: wallet.near.wallet_data.near.account_id,
      receiver_id: "nft.example.testnet",
      method_name: "nft_mint",
      method_type: "change",
      args: {
        token_metadata: { title: "Ticket" },
        receiver_id: "bob.testnet",
        token_id: "ticket-12",
        extra: { note: "aisle", tags: ["vip"] },
      },
      args_base64: answer.near.args_base64,
      gas: "100000000000000",
      deposit: "10000000000000000000000",
    });
    assert.deepEqual(JSON.parse(Buffer.from(answer.near.args_base64, "base64").toString()), answer.near.args);
  });

  it("nullable and optional objects, nested failures named", async () => {
    const nulled = expectStatus(await render("near", { receiver: "bob.testnet", seat: 1, extra: null }), 200);
    assert.equal(nulled.near.args.extra, null);
    const problem = assertProblem(
      await render("near", { receiver: "Bob!", seat: 1, extra: { note: 5, tags: ["ok", 7] } }),
      400,
      "validation_failed",
    );
    const paths = problem.errors.map((e: any) => e.path).sort();
    assert.deepEqual(paths, [
      "/body/params_data_input/extra/note",
      "/body/params_data_input/extra/tags/1",
      "/body/params_data_input/receiver",
    ]);
  });
});

describe("render: WAX action serialized with the ABI", () => {
  it("decodes back with the same ABI", async () => {
    const input = { to: "buyer.wam", quantity: "1.50000000 WAX", order: "77" };
    const answer = expectStatus(await render("wax", input), 200);
    assert.equal(answer.wax.account, "eosio.token");
    assert.equal(answer.wax.name, "transfer");
    assert.deepEqual(answer.wax.authorization, [{ actor: "shop.wam", permission: "active" }]);
    const decoded = Serializer.decode({
      data: answer.wax.data,
      abi: ABI.from(JSON.parse(WAX_ABI)),
      type: "transfer",
    });
    assert.deepEqual(JSON.parse(JSON.stringify(decoded)), {
      from: "shop.wam",
      to: "buyer.wam",
      quantity: "1.50000000 WAX",
      memo: "order 77",
    });
  });

  it("a value the ABI cannot serialize names its parameter", async () => {
    const problem = assertProblem(
      await render("wax", { to: "buyer.wam", quantity: "lots", order: "1" }),
      400,
      "validation_failed",
    );
    assert.equal(problem.errors[0].path, "/body/params_data_input/quantity");
  });
});

describe("render: Solana instruction", () => {
  const source = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
  const destination = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T";

  it("program, account metas and Borsh-laid data that decode back", async () => {
    const answer = expectStatus(await render("solana", { amount: 1000, source, destination }), 200);
    assert.equal(answer.solana.program_id, SPL_TOKEN);
    assert.equal(answer.solana.compute_units, "200000");
    assert.deepEqual(answer.solana.accounts, [
      { address: source, is_signer: false, is_writable: true },
      { address: destination, is_signer: false, is_writable: true },
      { address: wallet.solana.wallet_data.solana.account_id, is_signer: true, is_writable: false },
    ]);
    const decoder = getStructDecoder([
      ["instruction", getU8Decoder()],
      ["amount", getU64Decoder()],
      ["memo", addDecoderSizePrefix(getUtf8Decoder(), getU32Decoder())],
    ]);
    const bytes = Buffer.from(answer.solana.data_base64, "base64");
    assert.equal(answer.solana.data_hex, bytes.toString("hex"));
    assert.deepEqual(decoder.decode(bytes), { instruction: 3, amount: 1000n, memo: "paid" });
  });

  it("an account that is not an address names its parameter", async () => {
    const problem = assertProblem(
      await render("solana", { amount: 1, source: "not-base58!", destination }),
      400,
      "validation_failed",
    );
    assert.equal(problem.errors[0].path, "/body/params_data_input/source");
    const negative = assertProblem(
      await render("solana", { amount: -1, source, destination }),
      400,
      "validation_failed",
    );
    assert.equal(negative.errors[0].path, "/body/params_data_input/amount");
  });
});

describe("render: access", () => {
  it("401 without a credential, 404 for another tenant, developers may render", async () => {
    const url = `/triggers/${f.app.id}/${trigger.evm.id}/render`;
    assertProblem(await w.call("POST", url, { body: { params_data_input: {} } }), 401, "unauthenticated");
    assertProblem(
      await render("evm", { receiver: RECEIVER, quantity: 1 }, f.outsider.token),
      404,
      "not_found",
    );
    expectStatus(await render("evm", { receiver: RECEIVER, quantity: 1 }, f.developer.token), 200);
    const unknown = await w.call("POST", url, {
      token: f.owner.token,
      body: { params_data_input: {}, other: 1 },
    });
    assert.equal(assertProblem(unknown, 400, "validation_failed").errors[0].path, "/body/other");
  });
});
