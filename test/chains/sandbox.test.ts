import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ConfigError, loadChainsConfig, loadConfig } from "../../src/config.ts";
import type { PreparedCall } from "../../src/platform/chains/adapter.ts";
import { confirmationStatus, transactionResponse } from "../../src/platform/chains/present.ts";
import { ChainRegistry } from "../../src/platform/chains/registry.ts";
import { manualClock } from "../helpers/chains.ts";

const KEY = { privateKey: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d" };

function evmCall(text: string): PreparedCall {
  return {
    chain: "evm",
    to: "0x000000000000000000000000000000000000bEEF",
    data: `0x${Buffer.from(text).toString("hex")}`,
    value: 0n,
    gasLimit: 100_000n,
  };
}

function setup(env: Record<string, string> = {}) {
  const clock = manualClock();
  const registry = new ChainRegistry(loadChainsConfig(env), { now: clock.now });
  return { clock, registry };
}

describe("sandbox chain adapter", () => {
  test("is the default and confirms as the clock advances", async () => {
    const { clock, registry } = setup();
    assert.equal(registry.config.mode, "sandbox");
    const evm = registry.adapter("evm", "testnet");
    const sent = await evm.send(evmCall("mint"), KEY);
    assert.match(sent.transactionId, /^0x[0-9a-f]{64}$/);
    assert.match(sent.from, /^0x[0-9a-f]{40}$/);
    assert.ok(!JSON.stringify(sent).includes(KEY.privateKey.slice(2)));
    assert.deepEqual(await evm.status(sent), {
      state: "pending",
      confirmations: 0,
      requiredConfirmations: 3,
      averageSeconds: 12,
    });
    clock.advance(24);
    const midway = await evm.status(sent);
    assert.equal(midway.state, "pending");
    assert.equal(midway.confirmations, 2);
    clock.advance(12);
    const done = await evm.status(sent);
    assert.equal(done.state, "confirmed");
    assert.equal(done.confirmations, 3);
    assert.equal(
      evm.explorerUrl(sent.transactionId),
      `https://sepolia.etherscan.io/tx/${sent.transactionId}`,
    );
  });

  test("is deterministic: the same sequence of calls gives the same ids", async () => {
    const a = setup().registry.adapter("solana", "mainnet");
    const b = setup().registry.adapter("solana", "mainnet");
    const call: PreparedCall = {
      chain: "solana",
      programId: "11111111111111111111111111111111",
      accounts: [],
      data: new Uint8Array([1]),
    };
    const ids = async (adapter: typeof a) => [
      (await adapter.send(call, KEY)).transactionId,
      (await adapter.send(call, KEY)).transactionId,
    ];
    const [first, second] = [await ids(a), await ids(b)];
    assert.deepEqual(first, second);
    assert.notEqual(first[0], first[1]);
    assert.match(first[0], /^[1-9A-HJ-NP-Za-km-z]{80,90}$/);
  });

  test("another process (or a restarted one) follows a sandbox transaction from its stored record", async () => {
    const first = setup();
    const sent = await first.registry.adapter("evm", "testnet").send(evmCall("x sandbox:revert"), KEY);
    const stored = JSON.parse(JSON.stringify(sent));
    const other = setup();
    other.clock.advance(12);
    const status = await other.registry.adapter("evm", "testnet").status(stored);
    assert.equal(status.state, "failed");
    // A record that no sandbox made is unknown.
    const { sandboxOutcome: _ignored, ...bare } = stored;
    assert.equal((await other.registry.adapter("evm", "testnet").status(bare)).state, "dropped");
  });

  test("a marker in the payload selects revert, drop or slow", async () => {
    const { clock, registry } = setup();
    const near = registry.adapter("near", "testnet");
    const nearCall = (methodName: string, args: unknown): PreparedCall => ({
      chain: "near",
      receiverId: "shop.testnet",
      methodName,
      args,
      gas: 30_000_000_000_000n,
      deposit: 0n,
    });
    const reverted = await near.send(nearCall("buy", { memo: "sandbox:revert" }), {
      ...KEY,
      accountId: "app.testnet",
    });
    const dropped = await near.send(nearCall("sandbox:drop", {}), { ...KEY, accountId: "app.testnet" });
    const slow = await near.send(nearCall("buy", { note: "sandbox:slow" }), {
      ...KEY,
      accountId: "app.testnet",
    });
    const fine = await near.send(nearCall("buy", {}), { ...KEY, accountId: "app.testnet" });
    assert.equal(reverted.from, "app.testnet");
    clock.advance(3);
    const r = await near.status(reverted);
    assert.equal(r.state, "failed");
    assert.equal(r.error?.reason, "sandbox:revert requested by the call");
    assert.equal((await near.status(dropped)).state, "dropped");
    assert.equal((await near.status(fine)).state, "confirmed");
    const s = await near.status(slow);
    assert.equal(s.state, "pending");
    assert.equal(s.averageSeconds, 10);
    clock.advance(27);
    assert.equal((await near.status(slow)).state, "confirmed");
    // The EVM calldata of a string parameter carries the marker too.
    const evm = registry.adapter("evm", "mainnet");
    const evmReverted = await evm.send(evmCall("\u0000\u0000sandbox:revert"), KEY);
    clock.advance(12);
    assert.equal((await evm.status(evmReverted)).state, "failed");
  });

  test("a per-test override applies to the next send only", async () => {
    const { clock, registry } = setup();
    const wax = registry.adapter("wax", "testnet");
    const call: PreparedCall = { chain: "wax", account: "shop", name: "buy", authorization: [], data: "00" };
    registry.sandbox.nextOutcome("drop");
    const dropped = await wax.send(call, { ...KEY, accountId: "app" });
    const fine = await wax.send(call, { ...KEY, accountId: "app" });
    clock.advance(1000);
    assert.equal((await wax.status(dropped)).state, "dropped");
    assert.equal((await wax.status(fine)).state, "confirmed");
    assert.equal(
      (await wax.status({ ...fine, transactionId: "ff", sandboxOutcome: undefined })).state,
      "dropped",
    );
  });

  test("refuses a call for another chain and a signer without a key", async () => {
    const { registry } = setup();
    await assert.rejects(
      registry.adapter("wax", "mainnet").send(evmCall("x"), KEY),
      /evm call sent to the wax adapter/,
    );
    await assert.rejects(registry.adapter("evm", "mainnet").send(evmCall("x"), { privateKey: "" }), /no key/);
  });
});

describe("chain settings", () => {
  test("defaults, overrides and errors naming the setting", () => {
    const config = loadChainsConfig({
      SOLANA_TESTNET_RPC_URL: "http://127.0.0.1:8899/",
      EVM_MAINNET_CONFIRMATIONS: "20",
    });
    assert.equal(config.networks.solana.testnet.rpcUrl, "http://127.0.0.1:8899");
    assert.equal(config.networks.evm.mainnet.requiredConfirmations, 20);
    assert.equal(config.networks.near.mainnet.rpcUrl, undefined);
    assert.equal(config.evmResendAfterSeconds, 180);
    assert.equal(loadChainsConfig({}, false).mode, "real");
    assert.equal(loadChainsConfig({ CHAINS: "sandbox" }, false).mode, "sandbox");
    assert.equal(loadConfig({}).chains.mode, "sandbox");
    const bad: [Record<string, string>, string][] = [
      [{ CHAINS: "live" }, "CHAINS"],
      [{ WAX_MAINNET_RPC_URL: "ftp://x" }, "WAX_MAINNET_RPC_URL"],
      [{ NEAR_TESTNET_CONFIRMATIONS: "-1" }, "NEAR_TESTNET_CONFIRMATIONS"],
      [{ SOLANA_MAINNET_BLOCK_SECONDS: "0" }, "SOLANA_MAINNET_BLOCK_SECONDS"],
      [{ EVM_TESTNET_EXPLORER_URL: "https://x.io/tx/" }, "EVM_TESTNET_EXPLORER_URL"],
      [{ EVM_RESEND_AFTER_SECONDS: "1" }, "EVM_RESEND_AFTER_SECONDS"],
    ];
    for (const [env, setting] of bad) {
      assert.throws(
        () => loadChainsConfig(env),
        (e: unknown) => e instanceof ConfigError && e.setting === setting,
      );
    }
  });
});

describe("presenting a status for a payment", () => {
  test("confirmation_status and transaction_response", () => {
    const pending = {
      state: "pending" as const,
      confirmations: 1,
      requiredConfirmations: 3,
      averageSeconds: 12,
    };
    assert.deepEqual(confirmationStatus(pending), {
      average_seconds: 12,
      progress: 33,
      required_confirmations: 3,
      confirmations: 1,
      confirmed: false,
    });
    const done = { ...pending, state: "confirmed" as const, confirmations: 5, output: { block_number: 9 } };
    assert.deepEqual(confirmationStatus(done), {
      average_seconds: 12,
      progress: 100,
      required_confirmations: 3,
      confirmations: 3,
      confirmed: true,
    });
    assert.deepEqual(transactionResponse("evm", done), { error: null, evm: { output: { block_number: 9 } } });
    const failed = {
      ...pending,
      state: "failed" as const,
      error: { message: "execution reverted", reason: "no" },
    };
    assert.deepEqual(transactionResponse("near", failed), {
      error: { message: "execution reverted", reason: "no" },
      near: { output: {} },
    });
  });

  test("signed bytes broadcast again are the same transaction; a restarted process broadcasts stored bytes with their outcome", async () => {
    const { clock, registry } = setup();
    const evm = registry.adapter("evm", "testnet");
    registry.sandbox.nextOutcome("revert");
    const signed = await evm.sign(evmCall("mint"), KEY);
    assert.equal(registry.sandbox.broadcasts(signed.transactionId), 0, "signing sends nothing");
    const first = await evm.broadcast(signed);
    const again = await evm.broadcast(signed);
    assert.deepEqual(again, first);
    assert.equal(registry.sandbox.broadcasts(signed.transactionId), 2);
    clock.advance(12);
    assert.equal((await evm.status(first)).state, "failed");

    // A stored signature picked up by a new process: its ledger never saw it, the outcome travels with it.
    const stored = JSON.parse(JSON.stringify(await evm.sign(evmCall("sandbox:drop"), KEY)));
    const restarted = setup().registry;
    const sent = await restarted.adapter("evm", "testnet").broadcast(stored);
    assert.equal(sent.transactionId, stored.transactionId);
    assert.equal(restarted.sandbox.broadcasts(stored.transactionId), 1);
  });
});
