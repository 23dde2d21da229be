import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { PrivateKey } from "@wharfkit/antelope";
import { ChainError, type WaxCall } from "../../src/platform/chains/adapter.ts";
import { serializeWaxAction, WaxAdapter } from "../../src/platform/chains/wax.ts";
import { chainsConfig, manualClock } from "../helpers/chains.ts";
import { startWaxStandIn, type WaxStandIn } from "../helpers/wax.ts";

const ABI_JSON = {
  version: "eosio::abi/1.2",
  structs: ["buy", "fail", "stall"].map((name) => ({
    name,
    base: "",
    fields: [
      { name: "buyer", type: "name" },
      { name: "quantity", type: "asset" },
      { name: "memo", type: "string" },
    ],
  })),
  actions: ["buy", "fail", "stall"].map((name) => ({ name, type: name, ricardian_contract: "" })),
};

const key = PrivateKey.generate("K1");
const wallet = { privateKey: String(key), accountId: "shopwallet1", permission: "active" };
const clock = manualClock(new Date());
let standIn: WaxStandIn;
let adapter: WaxAdapter;

function call(name: string, memo = "order 1"): WaxCall {
  return {
    chain: "wax",
    account: "tickets",
    name,
    authorization: [{ actor: "shopwallet1", permission: "active" }],
    data: serializeWaxAction(ABI_JSON, name, { buyer: "alice", quantity: "1.00000000 WAX", memo }),
  };
}

/** Polls status until it leaves `pending`, with a bound so a bug cannot hang the suite. */
async function settle(sent: Awaited<ReturnType<WaxAdapter["send"]>>) {
  const seen = [];
  for (let i = 0; i < 20; i++) {
    const status = await adapter.status(sent);
    seen.push(status);
    if (status.state !== "pending") break;
  }
  return seen;
}

before(async () => {
  standIn = await startWaxStandIn({
    accounts: { "shopwallet1@active": String(key.toPublic()) },
    abi: ABI_JSON,
    stallMs: 2500,
    now: clock.now,
  });
  adapter = new WaxAdapter({
    network: "testnet",
    rpcUrl: standIn.url,
    settings: { ...chainsConfig().networks.wax.testnet, requiredConfirmations: 4 },
    timeoutMs: 1000,
    now: clock.now,
  });
});

after(async () => {
  await standIn?.close();
});

describe("WAX adapter against a loopback chain-API stand-in", () => {
  test("an ABI-serialized action is signed, pushed, and confirmed once its block is irreversible", async () => {
    const sent = await adapter.send(call("buy", "order 7"), wallet);
    assert.match(sent.transactionId, /^[0-9a-f]{64}$/);
    assert.equal(typeof sent.blockNumber, "number");
    assert.deepEqual(standIn.received.at(-1), {
      action: "tickets::buy",
      data: { buyer: "alice", quantity: "1.00000000 WAX", memo: "order 7" },
      actor: "shopwallet1",
    });
    const seen = await settle(sent);
    assert.equal(seen[0].state, "pending");
    assert.equal(seen[0].stage, "in_block");
    assert.equal(seen.at(-1)!.state, "confirmed");
    assert.equal(seen.at(-1)!.stage, "irreversible");
    assert.equal(
      adapter.explorerUrl(sent.transactionId),
      `https://testnet.waxblock.io/transaction/${sent.transactionId}`,
    );
  });

  test("slow finality: confirmations count up while the irreversible block lags", async () => {
    standIn.lag = 8;
    try {
      const seen = await settle(await adapter.send(call("buy"), wallet));
      const pending = seen.filter((s) => s.state === "pending").map((s) => s.confirmations);
      assert.ok(pending.length >= 5, `only ${pending.length} pending polls`);
      assert.deepEqual(pending.slice(0, 3), [2, 3, 3]);
      assert.equal(seen.at(-1)!.state, "confirmed");
    } finally {
      standIn.lag = 3;
    }
  });

  test("a contract assertion is a rejected call carrying the reason", async () => {
    await assert.rejects(
      adapter.send(call("fail"), wallet),
      (error: unknown) =>
        error instanceof ChainError && error.code === "rejected" && /sold out/.test(error.reason ?? ""),
    );
  });

  test("a key without the account's authority is rejected", async () => {
    const stranger = { ...wallet, privateKey: String(PrivateKey.generate("K1")) };
    await assert.rejects(adapter.send(call("buy"), stranger), /missing authority of shopwallet1/);
  });

  test("a push that times out is followed by id and still confirms", async () => {
    const sent = await adapter.send(call("stall"), wallet);
    assert.equal(sent.blockNumber, undefined);
    const seen = await settle(sent);
    assert.equal(seen.at(-1)!.state, "confirmed");
  });

  test("a transaction forked out of its block waits, then is dropped once expired", async () => {
    const sent = await adapter.send(call("buy"), wallet);
    standIn.forkOut(sent.transactionId);
    const seen = await settle(sent);
    assert.equal(seen.at(-1)!.state, "pending");
    assert.equal(seen.at(-1)!.stage, "forked");
    // Just past the transaction's own expiration (the stand-in's block time plus 120 s).
    clock.advance((Date.parse(sent.expiresAt!) - clock.now().getTime()) / 1000 + 1);
    assert.equal((await adapter.status(sent)).state, "dropped");
  });

  test("signed bytes pushed again are one transaction; bytes past expiration never included are stale", async () => {
    const before = standIn.received.length;
    const signed = await adapter.sign(call("buy", "once"), wallet);
    const first = await adapter.broadcast(signed);
    // nodeos answers a second copy tx_duplicate: the same transaction.
    const again = await adapter.broadcast(signed);
    assert.equal(again.transactionId, first.transactionId);
    assert.equal(standIn.received.length, before + 1, "one transaction");

    const late = await adapter.sign(call("buy", "late"), wallet);
    clock.advance(121);
    await assert.rejects(adapter.broadcast(late), (error: unknown) => {
      assert.ok(error instanceof ChainError);
      assert.equal(error.code, "stale");
      return true;
    });
    // Included before it expired, then pushed again after: followed, never signed anew.
    const landed = await adapter.sign(call("buy", "landed"), wallet);
    await adapter.broadcast(landed);
    clock.advance(121);
    assert.equal((await adapter.broadcast(landed)).transactionId, landed.transactionId);
    assert.equal(standIn.received.length, before + 2);
  });
});
