import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ABI, Serializer } from "@wharfkit/antelope";
import { decodeFunctionData } from "viem";
import { ChainError } from "../../src/platform/chains/adapter.ts";
import {
  prepareEvmCall,
  prepareNearCall,
  prepareSolanaCall,
  prepareWaxCall,
} from "../../src/platform/chains/prepare.ts";

const TICKET_ABI = JSON.stringify([
  {
    type: "function",
    name: "mint",
    stateMutability: "payable",
    inputs: [
      { name: "to", type: "address" },
      { name: "amount", type: "uint256" },
      { name: "memo", type: "string" },
    ],
    outputs: [],
  },
]);

const invalidCall = (pattern: RegExp) => (e: unknown) =>
  e instanceof ChainError && e.code === "invalid_call" && pattern.test(e.message);

describe("preparing calls from trigger call data", () => {
  test("EVM: the ABI string, method and rendered args become calldata", () => {
    const call = prepareEvmCall({
      contractId: "0x000000000000000000000000000000000000bEEF",
      abi: TICKET_ABI,
      methodName: "mint",
      args: ["0x00000000000000000000000000000000000000aa", 3n, "order 9"],
      gasLimit: "150000",
      value: "1000",
    });
    assert.equal(call.gasLimit, 150_000n);
    assert.equal(call.value, 1000n);
    const decoded = decodeFunctionData({ abi: JSON.parse(TICKET_ABI), data: call.data });
    assert.equal(decoded.functionName, "mint");
    assert.deepEqual(decoded.args, ["0x00000000000000000000000000000000000000AA", 3n, "order 9"]);
  });

  test("EVM: bad address, JSON, method, arguments and gas are refused", () => {
    const base = {
      contractId: "0x000000000000000000000000000000000000bEEF",
      abi: TICKET_ABI,
      methodName: "mint",
      args: ["0x00000000000000000000000000000000000000aa", 1n, "x"],
      gasLimit: "100000",
    };
    assert.throws(() => prepareEvmCall({ ...base, contractId: "0x12" }), invalidCall(/not an EVM address/));
    assert.throws(() => prepareEvmCall({ ...base, abi: "[" }), invalidCall(/abi is not valid JSON/));
    assert.throws(() => prepareEvmCall({ ...base, methodName: "burn" }), invalidCall(/cannot encode burn/));
    assert.throws(
      () => prepareEvmCall({ ...base, args: ["nope", 1n, "x"] }),
      invalidCall(/cannot encode mint/),
    );
    assert.throws(() => prepareEvmCall({ ...base, gasLimit: "1.5" }), invalidCall(/gas_limit/));
    assert.throws(() => prepareEvmCall({ ...base, gasLimit: "0" }), invalidCall(/gas_limit/));
  });

  test("NEAR: gas and deposit parsed as integers, account ids and the gas ceiling checked", () => {
    const call = prepareNearCall({
      contractId: "tickets.shop.testnet",
      methodName: "buy",
      args: { n: 1 },
      gasAmount: "30000000000000",
      attachedDepositAmount: "1000000000000000000000000",
    });
    assert.equal(call.gas, 30_000_000_000_000n);
    assert.equal(call.deposit, 10n ** 24n);
    assert.equal(prepareNearCall({ ...call, contractId: "a1.near", gasAmount: "1" }).deposit, 0n);
    assert.throws(
      () => prepareNearCall({ contractId: "Bad..id", methodName: "x", args: {}, gasAmount: "1" }),
      invalidCall(/NEAR account id/),
    );
    assert.throws(
      () =>
        prepareNearCall({ contractId: "ok.near", methodName: "x", args: {}, gasAmount: "300000000000001" }),
      invalidCall(/300 TGas/),
    );
  });

  test("WAX: data serialized with the ABI, names checked", () => {
    const abi = {
      version: "eosio::abi/1.2",
      structs: [
        {
          name: "buy",
          base: "",
          fields: [
            { name: "buyer", type: "name" },
            { name: "qty", type: "uint32" },
          ],
        },
      ],
      actions: [{ name: "buy", type: "buy", ricardian_contract: "" }],
    };
    const call = prepareWaxCall({
      contractId: "tickets",
      methodName: "buy",
      abi: JSON.stringify(abi),
      data: { buyer: "alice", qty: 2 },
      actor: "shopwallet1",
    });
    assert.deepEqual(call.authorization, [{ actor: "shopwallet1", permission: "active" }]);
    const decoded = Serializer.objectify(
      Serializer.decode({ data: call.data, type: "buy", abi: ABI.from(abi) }),
    );
    assert.deepEqual(decoded, { buyer: "alice", qty: 2 });
    assert.throws(
      () => prepareWaxCall({ ...call, contractId: "Tickets", methodName: "buy", abi, data: {}, actor: "a" }),
      invalidCall(/Antelope name/),
    );
    assert.throws(
      () =>
        prepareWaxCall({
          contractId: "tickets",
          methodName: "buy",
          abi,
          data: { buyer: "alice" },
          actor: "a",
        }),
      invalidCall(/cannot serialize buy/),
    );
  });

  test("Solana: base64 data, account flags and compute units", () => {
    const call = prepareSolanaCall({
      programId: "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr",
      accounts: [{ address: "11111111111111111111111111111111", writable: true }],
      data: Buffer.from("hi").toString("base64"),
      computeUnits: "20000",
    });
    assert.equal(Buffer.from(call.data).toString(), "hi");
    assert.deepEqual(call.accounts, [
      { address: "11111111111111111111111111111111", signer: false, writable: true },
    ]);
    assert.equal(call.computeUnits, 20_000);
    assert.throws(
      () => prepareSolanaCall({ ...call, programId: "0xabc" }),
      invalidCall(/not a Solana address/),
    );
    assert.throws(
      () => prepareSolanaCall({ ...call, computeUnits: "2000000" }),
      invalidCall(/compute_units/),
    );
  });
});
