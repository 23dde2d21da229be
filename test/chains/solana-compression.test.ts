import assert from "node:assert/strict";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, test } from "node:test";
import { createTreeConfig, findTreeConfigPda, mplBubblegum } from "@metaplex-foundation/mpl-bubblegum";
import {
  createMasterEditionV3,
  createMetadataAccountV3,
  findMasterEditionPda,
  findMetadataPda,
  mplTokenMetadata,
} from "@metaplex-foundation/mpl-token-metadata";
import { createNoopSigner, none, publicKey, some } from "@metaplex-foundation/umi";
import { createUmi } from "@metaplex-foundation/umi-bundle-defaults";
import {
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  type Instruction,
  lamports,
} from "@solana/kit";
import { FailedTransactionMetadata, LiteSVM, TransactionMetadata } from "litesvm";
import {
  BUBBLEGUM_PROGRAM,
  buildCreateCollection,
  buildCreateTree,
  SPL_ACCOUNT_COMPRESSION_PROGRAM,
  TOKEN_METADATA_PROGRAM,
} from "../../src/platform/chains/solana-compression.ts";
import {
  MAX_PROOF_NODES,
  rentExemptLamports,
  treeAccountSize,
  VALID_DEPTH_SIZE_PAIRS,
  validateTree,
} from "../../src/platform/chains/solana-trees.ts";
import { buildSignedTransaction } from "../../src/platform/chains/solana-tx.ts";

// The SPL SDK's package.json points at dist/cjs/index.js, which its 0.4.1 tarball does not ship
// (the build is under dist/cjs/src): load that file by path.
const splCompression = createRequire(import.meta.url)(
  path.join(import.meta.dirname, "../../node_modules/@solana/spl-account-compression/dist/cjs/src/index.js"),
) as { getConcurrentMerkleTreeAccountSize(depth: number, buffer: number, canopy?: number): number };
const { getConcurrentMerkleTreeAccountSize } = splCompression;

// Umi only builds instructions here (Metaplex's reference encoders); nothing is sent to this URL.
const umi = createUmi("http://127.0.0.1:9").use(mplBubblegum()).use(mplTokenMetadata());

function umiInstructions(builder: { getInstructions(): any[] }) {
  return builder.getInstructions().map((ix) => ({
    program: String(ix.programId),
    accounts: ix.keys.map((k: any) => [String(k.pubkey), k.isSigner, k.isWritable]),
    data: Buffer.from(ix.data).toString("hex"),
  }));
}

function ours(ix: Instruction) {
  return {
    program: String(ix.programAddress),
    accounts: (ix.accounts ?? []).map((a) => [String(a.address), a.role >= 2, a.role === 1 || a.role === 3]),
    data: Buffer.from(ix.data ?? []).toString("hex"),
  };
}

function wireSize(tx: Parameters<typeof getBase64EncodedWireTransaction>[0]) {
  return Buffer.from(getBase64EncodedWireTransaction(tx), "base64").length;
}

describe("tree sizes and rent", () => {
  test("the account size matches the SPL SDK for every valid pair and every canopy", () => {
    assert.equal(VALID_DEPTH_SIZE_PAIRS.length, 34);
    let checked = 0;
    for (const { maxDepth, maxBufferSize } of VALID_DEPTH_SIZE_PAIRS) {
      for (let canopy = 0; canopy < maxDepth; canopy++) {
        assert.equal(
          treeAccountSize(maxDepth, maxBufferSize, canopy),
          getConcurrentMerkleTreeAccountSize(maxDepth, maxBufferSize, canopy),
          `depth ${maxDepth}, buffer ${maxBufferSize}, canopy ${canopy}`,
        );
        checked++;
      }
    }
    assert.ok(checked > 500);
  });

  test("rent-exempt lamports match the runtime's rent for every valid pair", () => {
    const svm = new LiteSVM();
    for (const { maxDepth, maxBufferSize } of VALID_DEPTH_SIZE_PAIRS) {
      const space = treeAccountSize(maxDepth, maxBufferSize, 0);
      assert.equal(rentExemptLamports(space), svm.minimumBalanceForRentExemption(BigInt(space)));
    }
    // A well-known figure: a 14/64 tree without canopy is 31,800 bytes, about 0.22 SOL.
    assert.equal(treeAccountSize(14, 64, 0), 31_800);
    assert.equal(rentExemptLamports(31_800), 222_218_880n);
  });
});

describe("tree validation", () => {
  test("refuses pairs the program does not accept and canopies out of range", () => {
    assert.deepEqual(validateTree(14, 64, 0), []);
    assert.equal(validateTree(14, 65, 0)[0].field, "max_depth_size_pair");
    assert.equal(validateTree(4, 8, 0)[0].field, "max_depth_size_pair");
    assert.equal(validateTree(14, 64, -1)[0].field, "canopy_depth");
    assert.equal(validateTree(14, 64, 14)[0].field, "canopy_depth");
    assert.equal(validateTree(14, 64, 1.5)[0].field, "canopy_depth");
    assert.deepEqual(validateTree(14, 64, 13), []);
  });

  test("refuses canopies whose proofs cannot fit a transaction", () => {
    assert.equal(MAX_PROOF_NODES, 20);
    assert.deepEqual(validateTree(20, 64, 0), []);
    assert.match(validateTree(24, 64, 3)[0].message, /at least 4/);
    assert.deepEqual(validateTree(24, 64, 4), []);
    assert.match(validateTree(30, 1024, 9)[0].message, /at least 10/);
    assert.deepEqual(validateTree(30, 1024, 10), []);
  });
});

describe("create-tree transaction", () => {
  test("matches Metaplex's builder and allocates the tree account in litesvm", async () => {
    const svm = new LiteSVM();
    const payer = await generateKeyPairSigner();
    const tree = await generateKeyPairSigner();
    svm.airdrop(payer.address, lamports(10_000_000_000n));
    const plan = await buildCreateTree({
      payer,
      merkleTree: tree,
      maxDepth: 14,
      maxBufferSize: 64,
      canopyDepth: 3,
    });
    assert.equal(plan.space, getConcurrentMerkleTreeAccountSize(14, 64, 3));
    assert.equal(plan.lamports, svm.minimumBalanceForRentExemption(BigInt(plan.space)));

    const creator = createNoopSigner(publicKey(payer.address));
    umi.payer = creator;
    const official = createTreeConfig(umi, {
      merkleTree: publicKey(tree.address),
      treeCreator: creator,
      maxDepth: 14,
      maxBufferSize: 64,
      public: false,
    });
    assert.deepEqual([ours(plan.instructions[1])], umiInstructions(official));
    assert.equal(
      String(plan.treeConfig),
      String(findTreeConfigPda(umi, { merkleTree: publicKey(tree.address) })[0]),
    );
    assert.equal(plan.instructions[1].programAddress, BUBBLEGUM_PROGRAM);

    const full = await buildSignedTransaction(plan.instructions, payer, {
      blockhash: svm.latestBlockhash(),
      lastValidBlockHeight: 0n,
    });
    assert.equal(Object.keys(full.signatures).length, 2);
    assert.ok(wireSize(full) <= 1232);

    // Only the allocation runs: the Bubblegum and compression programs are not on npm for litesvm.
    const allocation = await buildSignedTransaction([plan.instructions[0]], payer, {
      blockhash: svm.latestBlockhash(),
      lastValidBlockHeight: 0n,
    });
    const result = svm.sendTransaction(allocation);
    assert.ok(result instanceof TransactionMetadata, String(result));
    const account = svm.getAccount(tree.address);
    assert.ok(account.exists);
    assert.equal(account.programAddress, SPL_ACCOUNT_COMPRESSION_PROGRAM);
    assert.equal(account.data.length, plan.space);
    assert.equal(BigInt(account.lamports), plan.lamports);
    // The whole transaction stops at the missing Bubblegum program, as on a cluster without it.
    const missing = svm.sendTransaction(
      await buildSignedTransaction(plan.instructions, payer, {
        blockhash: svm.latestBlockhash(),
        lastValidBlockHeight: 0n,
      }),
    );
    assert.ok(missing instanceof FailedTransactionMetadata);
  });

  test("refuses an invalid tree before building anything", async () => {
    const payer = await generateKeyPairSigner();
    const tree = await generateKeyPairSigner();
    await assert.rejects(
      buildCreateTree({ payer, merkleTree: tree, maxDepth: 30, maxBufferSize: 2048, canopyDepth: 2 }),
      /canopy_depth: must be at least 10/,
    );
  });
});

describe("create-collection transaction", () => {
  test("matches Metaplex's builders, fits one transaction, and mints the token in litesvm", async () => {
    const svm = new LiteSVM();
    const payer = await generateKeyPairSigner();
    const mint = await generateKeyPairSigner();
    svm.airdrop(payer.address, lamports(10_000_000_000n));
    const input = {
      name: "N".repeat(32),
      symbol: "S".repeat(10),
      uri: `https://example.com/${"u".repeat(180)}`,
    };
    const plan = await buildCreateCollection({ payer, mint, ...input });

    const authority = createNoopSigner(publicKey(payer.address));
    umi.payer = authority;
    umi.identity = authority;
    const umiMint = publicKey(mint.address);
    assert.equal(String(plan.metadataAccount), String(findMetadataPda(umi, { mint: umiMint })[0]));
    assert.equal(String(plan.masterEditionAccount), String(findMasterEditionPda(umi, { mint: umiMint })[0]));
    const metadata = createMetadataAccountV3(umi, {
      mint: umiMint,
      mintAuthority: authority,
      updateAuthority: authority,
      data: { ...input, sellerFeeBasisPoints: 0, creators: none(), collection: none(), uses: none() },
      isMutable: true,
      collectionDetails: some({ __kind: "V1", size: 0 }),
    });
    const edition = createMasterEditionV3(umi, {
      mint: umiMint,
      updateAuthority: authority,
      mintAuthority: authority,
      maxSupply: some(0),
    });
    assert.deepEqual([ours(plan.instructions[4])], umiInstructions(metadata));
    assert.deepEqual([ours(plan.instructions[5])], umiInstructions(edition));
    assert.equal(plan.instructions[4].programAddress, TOKEN_METADATA_PROGRAM);

    const lifetime = { blockhash: svm.latestBlockhash(), lastValidBlockHeight: 0n };
    const full = await buildSignedTransaction(plan.instructions, payer, lifetime);
    assert.ok(wireSize(full) <= 1232, `collection transaction is ${wireSize(full)} bytes`);

    // The token part runs (system, token and associated-token programs ship with litesvm);
    // Token Metadata is not on npm, so its two instructions are checked above, not executed.
    const tokenPart = await buildSignedTransaction(plan.instructions.slice(0, 4), payer, lifetime);
    const result = svm.sendTransaction(tokenPart);
    assert.ok(result instanceof TransactionMetadata, String(result));
    const ata = svm.getAccount(plan.tokenAccount);
    assert.ok(ata.exists);
    // SPL token account layout: amount is the u64 at offset 64.
    assert.equal(Buffer.from(ata.data).readBigUInt64LE(64), 1n);
    const mintAccount = svm.getAccount(plan.mint);
    assert.ok(mintAccount.exists);
    assert.equal(Buffer.from(mintAccount.data).readBigUInt64LE(36), 1n); // supply
    assert.equal(mintAccount.data[44], 0); // decimals
  });

  test("refuses names, symbols and URIs over Token Metadata's limits", async () => {
    const payer = await generateKeyPairSigner();
    const mint = await generateKeyPairSigner();
    await assert.rejects(
      buildCreateCollection({ payer, mint, name: "N".repeat(33), symbol: "S".repeat(11), uri: "" }),
      /name: at most 32 bytes; symbol: at most 10 bytes; uri: must not be empty/,
    );
  });
});
