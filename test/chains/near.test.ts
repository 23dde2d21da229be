import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { KeyPair } from "@near-js/crypto";
import { ChainError, type NearCall } from "../../src/platform/chains/adapter.ts";
import { NearAdapter } from "../../src/platform/chains/near.ts";
import { chainsConfig } from "../helpers/chains.ts";
import { type NearStandIn, startNearStandIn } from "../helpers/near.ts";

const key = KeyPair.fromRandom("ed25519");
const wallet = { privateKey: key.toString(), accountId: "shop.testnet" };
let standIn: NearStandIn;
let adapter: NearAdapter;

function call(methodName: string, args: unknown = { ticket: 1 }): NearCall {
  return {
    chain: "near",
    receiverId: "tickets.testnet",
    methodName,
    args,
    gas: 30_000_000_000_000n,
    deposit: 10n ** 21n,
  };
}

before(async () => {
  standIn = await startNearStandIn({ "shop.testnet": key.getPublicKey().toString() });
  adapter = new NearAdapter({
    network: "testnet",
    rpcUrl: standIn.url,
    settings: chainsConfig().networks.near.testnet,
    retries: 0,
  });
});

after(async () => {
  await standIn?.close();
});

describe("NEAR adapter against a loopback RPC stand-in", () => {
  test("sends a signed function call with gas and deposit, confirmed once final", async () => {
    const sent = await adapter.send(call("buy", { ticket: 7 }), wallet);
    assert.equal(sent.from, "shop.testnet");
    const decoded = standIn.received.at(-1)!;
    const action = decoded.transaction.actions[0].functionCall!;
    assert.equal(action.methodName, "buy");
    assert.equal(action.gas, 30_000_000_000_000n);
    assert.equal(action.deposit, 10n ** 21n);
    assert.deepEqual(JSON.parse(Buffer.from(action.args).toString()), { ticket: 7 });
    assert.equal(decoded.transaction.receiverId, "tickets.testnet");
    const status = await adapter.status(sent);
    assert.equal(status.state, "confirmed");
    assert.equal(status.stage, "FINAL");
    assert.deepEqual(status.output?.value, { ticket: 7 });
    assert.equal(
      adapter.explorerUrl(sent.transactionId),
      `https://testnet.nearblocks.io/txns/${sent.transactionId}`,
    );
  });

  test("nonces rise across concurrent sends from one key", async () => {
    const sends = await Promise.all([1, 2, 3, 4, 5].map((n) => adapter.send(call("buy", { n }), wallet)));
    const nonces = sends.map((s) => s.nonce!).sort((a, b) => a - b);
    assert.equal(new Set(nonces).size, 5);
    assert.equal(nonces[4] - nonces[0], 4);
  });

  test("a failed call is failed with the receipt's error", async () => {
    const status = await adapter.status(await adapter.send(call("fail"), wallet));
    assert.equal(status.state, "failed");
    assert.match(status.error!.reason!, /Smart contract panicked: sold out/);
    assert.deepEqual(status.error!.logs, ["buying"]);
  });

  test("a failed receipt fails the call even though the transaction is final and reads success", async () => {
    const status = await adapter.status(await adapter.send(call("receipt_fail"), wallet));
    assert.equal(status.stage, "FINAL");
    assert.equal(status.state, "failed");
    assert.match(status.error!.message, /^receipt .+ failed$/);
  });

  test("slow finality stays pending through INCLUDED and EXECUTED_OPTIMISTIC", async () => {
    const sent = await adapter.send(call("slow"), wallet);
    const seen = [];
    for (let i = 0; i < 3; i++) {
      const s = await adapter.status(sent);
      seen.push([s.stage, s.state, s.confirmations]);
    }
    assert.deepEqual(seen, [
      ["INCLUDED", "pending", 1],
      ["EXECUTED_OPTIMISTIC", "pending", 1],
      ["FINAL", "confirmed", 3],
    ]);
  });

  test("a timed-out send is followed, not lost; a timed-out status is pending", async () => {
    const sent = await adapter.send(call("timeout"), wallet);
    const first = await adapter.status(sent);
    assert.equal(first.state, "pending");
    assert.equal(first.stage, "timeout");
    assert.equal((await adapter.status(sent)).state, "confirmed");
  });

  test("refuses a key the account does not hold, and a missing account id", async () => {
    const stranger = KeyPair.fromRandom("ed25519").toString();
    await assert.rejects(
      adapter.send(call("buy"), { privateKey: stranger, accountId: "shop.testnet" }),
      /no usable access key of shop.testnet/,
    );
    await assert.rejects(adapter.send(call("buy"), { privateKey: wallet.privateKey }), /account id/);
    const unknown = await adapter.status({
      ...(await adapter.send(call("buy"), wallet)),
      transactionId: "1".repeat(44),
    });
    assert.equal(unknown.state, "pending");
  });

  test("signed bytes broadcast again are one transaction; bytes whose nonce went elsewhere are stale", async () => {
    const before = standIn.received.length;
    const signed = await adapter.sign(call("buy", { ticket: 8 }), wallet);
    await adapter.broadcast(signed);
    // The stand-in answers a second copy InvalidNonce (its nonce is used): the adapter finds the
    // transaction by hash and answers it as sent.
    const again = await adapter.broadcast(signed);
    assert.equal(again.transactionId, signed.transactionId);
    assert.equal(standIn.received.length, before + 1, "one transaction");
    assert.equal((await adapter.status(again)).state, "confirmed");

    const orphan = await adapter.sign(call("buy", { ticket: 9 }), wallet);
    adapter.discard(orphan);
    const other = await adapter.send(call("buy", { ticket: 10 }), wallet);
    assert.equal(other.nonce, orphan.nonce, "the discarded nonce went to the next call");
    await assert.rejects(adapter.broadcast(orphan), (error: unknown) => {
      assert.ok(error instanceof ChainError);
      assert.equal(error.code, "stale");
      return true;
    });
  });
});
