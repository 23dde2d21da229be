import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { encodeFunctionData, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { ChainError, type EvmCall } from "../../src/platform/chains/adapter.ts";
import { EvmAdapter } from "../../src/platform/chains/evm.ts";
import { type Anvil, chainsConfig, compileContract, manualClock, startAnvil } from "../helpers/chains.ts";

// anvil's well-known development keys (accounts 0 and 1 of "test … junk"); they hold no real funds.
const DEPLOYER = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const WALLET = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const BUYER = "0x000000000000000000000000000000000000bEEF";
// anvil serves chain 31337: the testnet network is declared as that local chain.
const LOCAL = { EVM_TESTNET_CHAIN_ID: "31337" };

let anvil: Anvil;
let adapter: EvmAdapter;
let ticket: Hex;
let abi: any[];
const clock = manualClock();

/** anvil mines each transaction as it arrives, but its receipt can lag the send by a moment. */
async function mined<T extends { transactionId: string }>(sent: T): Promise<T> {
  await adapter.client.waitForTransactionReceipt({ hash: sent.transactionId as Hex, pollingInterval: 20 });
  return sent;
}

function mint(amount: bigint, memo = "payment"): EvmCall {
  return {
    chain: "evm",
    to: ticket,
    data: encodeFunctionData({ abi, functionName: "mint", args: [BUYER, amount, memo] }),
    value: 0n,
    gasLimit: 200_000n,
  };
}

before(async () => {
  const compiled = compileContract("Ticket.sol", "Ticket");
  abi = compiled.abi;
  anvil = await startAnvil();
  const settings = chainsConfig(LOCAL).networks.evm.testnet; // 3 confirmations
  adapter = new EvmAdapter({
    network: "testnet",
    rpcUrl: anvil.url,
    settings,
    resendAfterSeconds: 60,
    now: clock.now,
  });
  const from = privateKeyToAccount(DEPLOYER).address;
  const hash = await anvil.rpc("eth_sendTransaction", [{ from, data: compiled.bytecode, gas: "0xf4240" }]);
  // anvil mines at once, but on a loaded machine the receipt can take a moment to be served.
  let receipt: { contractAddress: string } | null = null;
  for (let i = 0; i < 100 && !receipt; i++) {
    receipt = await anvil.rpc("eth_getTransactionReceipt", [hash]);
    if (!receipt) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  ticket = receipt!.contractAddress as Hex;
});

after(async () => {
  await anvil?.stop();
});

describe("EVM adapter on anvil", () => {
  test("a contract call is sent, and confirmations count up as blocks are mined", async () => {
    const sent = await mined(await adapter.send(mint(2n), { privateKey: WALLET }));
    assert.match(sent.transactionId, /^0x[0-9a-f]{64}$/);
    assert.equal(sent.from, privateKeyToAccount(WALLET).address);
    let status = await adapter.status(sent);
    assert.equal(status.state, "pending");
    assert.equal(status.confirmations, 1);
    assert.equal(status.requiredConfirmations, 3);
    await anvil.rpc("anvil_mine", ["0x1"]);
    status = await adapter.status(sent);
    assert.equal(status.confirmations, 2);
    assert.equal(status.state, "pending");
    await anvil.rpc("anvil_mine", ["0x1"]);
    status = await adapter.status(sent);
    assert.equal(status.confirmations, 3);
    assert.equal(status.state, "confirmed");
    assert.equal(status.output?.logs, 1);
    const minted = await adapter.client.readContract({
      address: ticket,
      abi,
      functionName: "minted",
      args: [BUYER],
    });
    assert.equal(minted, 2n);
    assert.equal(adapter.explorerUrl(sent.transactionId), null, "a local chain has no explorer");
  });

  test("a revert is reported as failed with its reason", async () => {
    const sent = await mined(await adapter.send(mint(0n), { privateKey: WALLET }));
    const status = await adapter.status(sent);
    assert.equal(status.state, "failed");
    assert.equal(status.error?.message, "execution reverted");
    assert.equal(status.error?.reason, "amount must be positive");
    const other = await adapter.status(await mined(await adapter.send(mint(101n), { privateKey: WALLET })));
    assert.equal(other.error?.reason, "too many tickets");
  });

  test("50 concurrent sends from one wallet use contiguous nonces and all succeed", async () => {
    const first = await adapter.client.getTransactionCount({ address: privateKeyToAccount(WALLET).address });
    const sends = await Promise.all(
      Array.from({ length: 50 }, (_, i) => adapter.send(mint(1n, `n${i}`), { privateKey: WALLET })),
    );
    const nonces = sends.map((s) => s.nonce!).sort((a, b) => a - b);
    assert.deepEqual(
      nonces,
      Array.from({ length: 50 }, (_, i) => first + i),
    );
    await Promise.all(sends.map(mined));
    await anvil.rpc("anvil_mine", ["0x3"]);
    const states = await Promise.all(sends.map((s) => adapter.status(s)));
    assert.deepEqual(new Set(states.map((s) => s.state)), new Set(["confirmed"]));
  });

  test("a reorg that removes the receipt's block moves the transaction back to pending", async () => {
    const snapshot = await anvil.rpc("evm_snapshot");
    const sent = await mined(await adapter.send(mint(3n), { privateKey: WALLET }));
    await anvil.rpc("anvil_mine", ["0x2"]);
    assert.equal((await adapter.status(sent)).state, "confirmed");
    await anvil.rpc("evm_revert", [snapshot]);
    await anvil.rpc("anvil_mine", ["0x4"]);
    const status = await adapter.status(sent);
    assert.equal(status.state, "pending");
    assert.equal(status.confirmations, 0);
    assert.equal(status.stage, "unknown");
  });

  test("a receipt still served for a block the chain no longer has is treated as reorged", async () => {
    // A node behind a cache (or a lagging replica) can keep answering the old receipt after a
    // reorg: a proxy in front of anvil pins the receipt from before the reorg.
    const pinned = new Map<string, unknown>();
    const proxy = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", async () => {
        const request = JSON.parse(body);
        const calls = Array.isArray(request) ? request : [request];
        const answers = await Promise.all(
          calls.map(async (c: any) =>
            c.method === "eth_getTransactionReceipt" && pinned.has(c.params[0])
              ? { jsonrpc: "2.0", id: c.id, result: pinned.get(c.params[0]) }
              : { jsonrpc: "2.0", id: c.id, result: await anvil.rpc(c.method, c.params) },
          ),
        );
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify(Array.isArray(request) ? answers : answers[0]));
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const settings = chainsConfig(LOCAL).networks.evm.testnet;
      const viaProxy = new EvmAdapter({ network: "testnet", rpcUrl: url, settings, resendAfterSeconds: 60 });
      const snapshot = await anvil.rpc("evm_snapshot");
      const sent = await mined(await viaProxy.send(mint(5n), { privateKey: WALLET }));
      await anvil.rpc("anvil_mine", ["0x2"]);
      assert.equal((await viaProxy.status(sent)).state, "confirmed");
      pinned.set(sent.transactionId, await anvil.rpc("eth_getTransactionReceipt", [sent.transactionId]));
      await anvil.rpc("evm_revert", [snapshot]);
      await anvil.rpc("anvil_mine", ["0x3"]);
      const status = await viaProxy.status(sent);
      assert.equal(status.state, "pending");
      assert.equal(status.stage, "reorged");
      assert.equal(status.confirmations, 0);
    } finally {
      proxy.close();
    }
  });

  test("a transaction stuck past the deadline is resent with the same nonce and a higher fee", async () => {
    await anvil.rpc("evm_setAutomine", [false]);
    try {
      const sent = await adapter.send(mint(4n), { privateKey: WALLET });
      let status = await adapter.status(sent);
      assert.equal(status.state, "pending");
      assert.equal(status.stuck, false);
      clock.advance(61);
      status = await adapter.status(sent);
      assert.equal(status.stuck, true);
      const replacement = await adapter.send(mint(4n), { privateKey: WALLET }, { replacing: sent });
      assert.notEqual(replacement.transactionId, sent.transactionId);
      assert.equal(replacement.nonce, sent.nonce);
      assert.ok(BigInt(replacement.maxFeePerGas!) > BigInt(sent.maxFeePerGas!));
      assert.ok(BigInt(replacement.maxPriorityFeePerGas!) > BigInt(sent.maxPriorityFeePerGas!));
      await anvil.rpc("anvil_mine", ["0x3"]);
      assert.equal((await adapter.status(replacement)).state, "confirmed");
      assert.equal((await adapter.status(sent)).state, "dropped");
    } finally {
      await anvil.rpc("evm_setAutomine", [true]);
    }
  });

  test("signed bytes broadcast again are one transaction, in the pool or mined; bytes whose nonce went elsewhere are stale", async () => {
    const from = privateKeyToAccount(WALLET).address;
    const before = await adapter.client.getTransactionCount({ address: from });
    const mintedBefore = await adapter.client.readContract({
      address: ticket,
      abi,
      functionName: "minted",
      args: [BUYER],
    });
    await anvil.rpc("evm_setAutomine", [false]);
    let signed: Awaited<ReturnType<typeof adapter.sign>>;
    try {
      signed = await adapter.sign(mint(1n, "once"), { privateKey: WALLET });
      assert.equal(signed.nonce, before);
      const first = await adapter.broadcast(signed);
      // A worker that died before recording the broadcast sends the stored bytes again: in the pool…
      const again = await adapter.broadcast(signed);
      assert.equal(first.transactionId, signed.transactionId);
      assert.equal(again.transactionId, signed.transactionId);
      assert.equal("raw" in again, false, "the sent record leaves the bytes out");
      await anvil.rpc("anvil_mine", ["0x1"]);
    } finally {
      await anvil.rpc("evm_setAutomine", [true]);
    }
    // …or already mined.
    assert.equal((await adapter.broadcast(signed)).transactionId, signed.transactionId);
    assert.equal(await adapter.client.getTransactionCount({ address: from }), before + 1, "one transaction");
    const mintedAfter = await adapter.client.readContract({
      address: ticket,
      abi,
      functionName: "minted",
      args: [BUYER],
    });
    assert.equal((mintedAfter as bigint) - (mintedBefore as bigint), 1n, "minted once");

    // Signed, never broadcast, and its nonce taken by another transaction: it can never land.
    const orphan = await adapter.sign(mint(1n, "orphan"), { privateKey: WALLET });
    adapter.discard(orphan);
    const other = await mined(await adapter.send(mint(1n, "other"), { privateKey: WALLET }));
    assert.equal(other.nonce, orphan.nonce);
    await assert.rejects(adapter.broadcast(orphan), (error: unknown) => {
      assert.ok(error instanceof ChainError);
      assert.equal(error.code, "stale");
      return true;
    });
  });
});

describe("EVM chain identity on anvil (chain 31337)", () => {
  const sepolia = () =>
    new EvmAdapter({
      network: "testnet",
      rpcUrl: anvil.url,
      settings: chainsConfig().networks.evm.testnet, // the default: Sepolia, 11155111
      resendAfterSeconds: 60,
      now: clock.now,
    });
  const pendingCount = () =>
    adapter.client.getTransactionCount({ address: privateKeyToAccount(WALLET).address, blockTag: "pending" });

  test("a node serving another chain than the network's is refused before anything is signed", async () => {
    const before = await pendingCount();
    const blockBefore = await adapter.client.getBlockNumber({ cacheTime: 0 });
    await assert.rejects(sepolia().sign(mint(1n), { privateKey: WALLET }), (error: unknown) => {
      assert.ok(error instanceof ChainError);
      assert.equal(error.code, "wrong_network");
      assert.match(error.message, /EVM_TESTNET_RPC_URL serves EVM chain 31337/);
      assert.match(error.message, /chain 11155111 \(EVM_TESTNET_CHAIN_ID\)/);
      assert.match(error.message, /nothing was signed/);
      return true;
    });
    await assert.rejects(sepolia().send(mint(1n), { privateKey: WALLET }), /EVM_TESTNET_RPC_URL serves/);
    assert.equal(await pendingCount(), before, "nothing reached the node");
    assert.equal(await adapter.client.getBlockNumber({ cacheTime: 0 }), blockBefore, "no block was made");
  });

  test("a transaction signed for the right chain is neither broadcast to nor judged by a node of another chain", async () => {
    const signed = await adapter.sign(mint(1n, "elsewhere"), { privateKey: WALLET });
    adapter.discard(signed);
    const wrongNode = sepolia();
    for (const attempt of [wrongNode.broadcast(signed), wrongNode.status(signed)]) {
      await assert.rejects(attempt, (error: unknown) => {
        assert.ok(error instanceof ChainError);
        // Retried, never final: the bytes may be on the right chain already.
        assert.equal(error.code, "wrong_node");
        assert.match(error.message, /EVM_TESTNET_RPC_URL serves EVM chain 31337/);
        return true;
      });
    }
    const found = await adapter.client
      .getTransaction({ hash: signed.transactionId as Hex })
      .catch(() => null);
    assert.equal(found, null, "the bytes were not sent");
  });

  test("a wallet made for another chain id is refused without asking the node; its own chain id signs", async () => {
    // A node that cannot be reached: the refusal comes before any question to it.
    const unreachable = new EvmAdapter({
      network: "testnet",
      rpcUrl: "http://127.0.0.1:9",
      settings: chainsConfig(LOCAL).networks.evm.testnet,
      resendAfterSeconds: 60,
    });
    await assert.rejects(
      unreachable.sign(mint(1n), { privateKey: WALLET, networkId: "11155111" }),
      (error: unknown) => {
        assert.ok(error instanceof ChainError);
        assert.equal(error.code, "wrong_network");
        assert.match(
          error.message,
          /wallet is for EVM network "11155111".*chain 31337 \(EVM_TESTNET_CHAIN_ID\)/,
        );
        return true;
      },
    );
    const signed = await adapter.sign(mint(1n), { privateKey: WALLET, networkId: "31337" });
    adapter.discard(signed);
    assert.equal(signed.nonce, await pendingCount());
  });
});
