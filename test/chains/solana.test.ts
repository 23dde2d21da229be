import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { address, generateKeyPairSigner, lamports } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { FailedTransactionMetadata, LiteSVM, TransactionMetadata } from "litesvm";
import { ChainError, type SolanaCall } from "../../src/platform/chains/adapter.ts";
import { SolanaAdapter } from "../../src/platform/chains/solana.ts";
import { buildCreateCollection } from "../../src/platform/chains/solana-compression.ts";
import {
  buildSignedTransaction,
  callInstructions,
  generateSolanaSecret,
  solanaCallFromInstructions,
  solanaSigner,
} from "../../src/platform/chains/solana-tx.ts";
import { chainsConfig } from "../helpers/chains.ts";
import { type SolanaStandIn, startSolanaStandIn } from "../helpers/solana.ts";

const MEMO = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr";
const SYSTEM = "11111111111111111111111111111111";

let svm: LiteSVM;
let standIn: SolanaStandIn;
let adapter: SolanaAdapter;
const walletKey = generateSolanaSecret();

function transferCall(from: string, to: string, amount: bigint): SolanaCall {
  const data = new Uint8Array(12);
  const view = new DataView(data.buffer);
  view.setUint32(0, 2, true); // SystemInstruction::Transfer
  view.setBigUint64(4, amount, true);
  return {
    chain: "solana",
    programId: SYSTEM,
    accounts: [
      { address: from, signer: true, writable: true },
      { address: to, signer: false, writable: true },
    ],
    data,
  };
}

function memoCall(signer: string, memo: Uint8Array): SolanaCall {
  return {
    chain: "solana",
    programId: MEMO,
    accounts: [{ address: signer, signer: true, writable: false }],
    data: memo,
  };
}

async function sendInSvm(call: SolanaCall) {
  const signer = await solanaSigner(walletKey);
  const tx = await buildSignedTransaction(callInstructions(call), signer, {
    blockhash: svm.latestBlockhash(),
    lastValidBlockHeight: 0n,
  });
  return svm.sendTransaction(tx);
}

before(async () => {
  svm = new LiteSVM();
  const wallet = await solanaSigner(walletKey);
  svm.airdrop(wallet.address, lamports(5_000_000_000n));
  standIn = await startSolanaStandIn(svm);
  adapter = new SolanaAdapter({
    network: "testnet",
    rpcUrl: standIn.url,
    settings: chainsConfig().networks.solana.testnet,
  });
});

after(async () => {
  await standIn?.close();
});

describe("Solana transactions executed in litesvm", () => {
  test("a SOL transfer built from a prepared call moves the lamports", async () => {
    const wallet = await solanaSigner(walletKey);
    const to = (await generateKeyPairSigner()).address;
    // The prepared call matches the official system-program builder's instruction exactly.
    const call = transferCall(wallet.address, to, 1_000_000n);
    const official = getTransferSolInstruction({ source: wallet, destination: to, amount: 1_000_000n });
    assert.deepEqual(Buffer.from(call.data), Buffer.from(official.data));
    const result = await sendInSvm(call);
    assert.ok(result instanceof TransactionMetadata, String(result));
    assert.equal(svm.getBalance(to), 1_000_000n);
  });

  test("a memo program call runs with a compute-unit limit", async () => {
    const wallet = await solanaSigner(walletKey);
    const call = { ...memoCall(wallet.address, new TextEncoder().encode("order 42")), computeUnits: 50_000 };
    assert.equal(callInstructions(call).length, 2);
    const result = await sendInSvm(call);
    assert.ok(result instanceof TransactionMetadata, String(result));
    const logs = result.logs().join("\n");
    assert.match(logs, /Program log: "?order 42"?\n/);
    // The limit reached the runtime: the memo ran under 50,000 units less the budget instruction's.
    assert.match(logs, /consumed \d+ of 49850 compute units/);
  });

  test("a failing instruction is reported with its logs", async () => {
    const wallet = await solanaSigner(walletKey);
    const result = await sendInSvm(memoCall(wallet.address, new Uint8Array([0xff, 0xfe])));
    assert.ok(result instanceof FailedTransactionMetadata);
    assert.ok(
      result
        .meta()
        .logs()
        .some((l) => /invalid utf-8/i.test(l)),
      result.meta().logs().join("\n"),
    );
  });
});

describe("Solana adapter over RPC (loopback stand-in executing in litesvm)", () => {
  test("follows processed -> confirmed -> finalized", async () => {
    const wallet = await solanaSigner(walletKey);
    const to = (await generateKeyPairSigner()).address;
    const sent = await adapter.send(transferCall(wallet.address, to, 1_000_000n), { privateKey: walletKey });
    assert.equal(sent.from, wallet.address);
    assert.equal(svm.getBalance(address(to)), 1_000_000n);
    const seen = [];
    for (let i = 0; i < 3; i++) {
      const status = await adapter.status(sent);
      seen.push([status.stage, status.state]);
    }
    assert.deepEqual(seen, [
      ["processed", "pending"],
      ["confirmed", "pending"],
      ["finalized", "confirmed"],
    ]);
    assert.equal((await adapter.status(sent)).confirmations, 32);
    assert.equal(
      adapter.explorerUrl(sent.transactionId),
      `https://explorer.solana.com/tx/${sent.transactionId}?cluster=devnet`,
    );
  });

  test("a multi-instruction transaction signed by a new account too (a collection's token part)", async () => {
    const payer = await solanaSigner(walletKey);
    const mintSecret = generateSolanaSecret();
    const mint = await solanaSigner(mintSecret);
    const plan = await buildCreateCollection({
      payer,
      mint,
      name: "Tickets",
      symbol: "TIX",
      uri: "https://example.com/c.json",
    });
    // Token Metadata is not in litesvm: the mint, token account and mint-to run through the adapter.
    const call = solanaCallFromInstructions(plan.instructions.slice(0, 4), [mintSecret]);
    assert.equal(call.extraInstructions?.length, 3);
    const sent = await adapter.send(call, { privateKey: walletKey });
    let status = await adapter.status(sent);
    for (let i = 0; i < 5 && status.state === "pending"; i++) status = await adapter.status(sent);
    assert.equal(status.state, "confirmed", JSON.stringify(status.error));
    const ata = svm.getAccount(plan.tokenAccount);
    assert.ok(ata.exists);
    assert.equal(Buffer.from(ata.data).readBigUInt64LE(64), 1n);
  });

  test("a failed instruction comes back failed with the program logs", async () => {
    const wallet = await solanaSigner(walletKey);
    const sent = await adapter.send(memoCall(wallet.address, new Uint8Array([0xff])), {
      privateKey: walletKey,
    });
    const status = await adapter.status(sent);
    assert.equal(status.state, "failed");
    assert.ok(
      status.error?.logs?.some((l) => /invalid utf-8/i.test(l)),
      JSON.stringify(status.error),
    );
  });

  test("an unknown signature is pending, or dropped once its blockhash expired; a malformed key is refused", async () => {
    const wallet = await solanaSigner(walletKey);
    const status = await adapter.status({
      chain: "solana",
      network: "testnet",
      transactionId: "1".repeat(64),
      from: wallet.address,
      sentAt: new Date().toISOString(),
    });
    assert.equal(status.state, "pending");
    // Never seen, and its blockhash expired: it can no longer land.
    standIn.blockhashValid = false;
    try {
      const expired = await adapter.status({
        chain: "solana",
        network: "testnet",
        transactionId: "1".repeat(64),
        from: wallet.address,
        sentAt: new Date().toISOString(),
        blockhash: "11111111111111111111111111111111",
        lastValidBlockHeight: "1000",
      });
      assert.equal(expired.state, "dropped");
    } finally {
      standIn.blockhashValid = true;
    }
    await assert.rejects(
      adapter.send(memoCall(wallet.address, new Uint8Array([65])), { privateKey: "abc" }),
      /64 bytes/,
    );
  });

  test("signed bytes broadcast again are one transaction; bytes whose blockhash expired unsent are stale", async () => {
    const wallet = await solanaSigner(walletKey);
    const to = (await generateKeyPairSigner()).address;
    const signed = await adapter.sign(transferCall(wallet.address, to, 1_000_000n), {
      privateKey: walletKey,
    });
    await adapter.broadcast(signed);
    const again = await adapter.broadcast(signed);
    assert.equal(again.transactionId, signed.transactionId);
    assert.equal(svm.getBalance(address(to)), 1_000_000n, "transferred once");

    const late = await adapter.sign(transferCall(wallet.address, to, 1n), { privateKey: walletKey });
    standIn.blockhashValid = false;
    try {
      await assert.rejects(adapter.broadcast(late), (error: unknown) => {
        assert.ok(error instanceof ChainError);
        assert.equal(error.code, "stale");
        return true;
      });
    } finally {
      standIn.blockhashValid = true;
    }
    assert.equal(svm.getBalance(address(to)), 1_000_000n, "the stale transaction never ran");
  });
});
