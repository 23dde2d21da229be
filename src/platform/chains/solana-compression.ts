import {
  AccountRole,
  type Address,
  address,
  getAddressEncoder,
  getProgramDerivedAddress,
  type Instruction,
  type TransactionSigner,
} from "@solana/kit";
import { getCreateAccountInstruction, SYSTEM_PROGRAM_ADDRESS } from "@solana-program/system";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import { ChainError } from "./adapter.ts";
import { collectionProblems } from "./solana-collections.ts";
import { rentExemptLamports, treeCost, validateTree } from "./solana-trees.ts";

/**
 * Transactions for compressed NFTs: a Bubblegum tree (the SPL account-compression tree account
 * plus Bubblegum's tree config) and a Metaplex collection NFT. System, token and associated-token
 * instructions come from the official @solana-program builders; the Bubblegum and Token Metadata
 * instructions are encoded here from their published layouts and checked byte for byte against
 * Metaplex's own builders (mpl-bubblegum, mpl-token-metadata) in the tests, which keeps Metaplex's
 * Umi framework out of the service.
 */

export const SPL_ACCOUNT_COMPRESSION_PROGRAM = address("cmtDvXumGCrqC1Age74AVPhSRVXJMd8PJS91L8KbNCK");
const SPL_NOOP_PROGRAM = address("noopb9bkMVfRPU8AsbpTUg8AQkHtKwMYZiFUjNRtMmV");
export const BUBBLEGUM_PROGRAM = address("BGUMAp9Gq7iTEuizy4pqaxsTyUCBK68MDfK752saRPUY");
export const TOKEN_METADATA_PROGRAM = address("metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s");

/** Anchor discriminator of Bubblegum's `create_tree`: sha256("global:create_tree")[0..8]. */
const CREATE_TREE_DISCRIMINATOR = [165, 83, 136, 142, 89, 202, 47, 220];
/** Token Metadata instruction indexes. */
const CREATE_METADATA_ACCOUNT_V3 = 33;
const CREATE_MASTER_EDITION_V3 = 17;

const meta = (addr: Address, role: AccountRole) => ({ address: addr, role });

class Writer {
  private readonly bytes: number[] = [];
  u8(v: number) {
    this.bytes.push(v & 0xff);
    return this;
  }
  u16(v: number) {
    return this.u8(v).u8(v >> 8);
  }
  u32(v: number) {
    return this.u16(v & 0xffff).u16(v >>> 16);
  }
  u64(v: bigint) {
    for (let i = 0n; i < 8n; i++) this.u8(Number((v >> (8n * i)) & 0xffn));
    return this;
  }
  raw(values: Iterable<number>) {
    for (const v of values) this.u8(v);
    return this;
  }
  string(v: string) {
    const utf8 = new TextEncoder().encode(v);
    return this.u32(utf8.length).raw(utf8);
  }
  done() {
    return Uint8Array.from(this.bytes);
  }
}

async function findTreeConfig(merkleTree: Address): Promise<Address> {
  const [pda] = await getProgramDerivedAddress({
    programAddress: BUBBLEGUM_PROGRAM,
    seeds: [getAddressEncoder().encode(merkleTree)],
  });
  return pda;
}

export interface CreateTreeInput {
  payer: TransactionSigner;
  /** A fresh keypair: the tree account's address. */
  merkleTree: TransactionSigner;
  maxDepth: number;
  maxBufferSize: number;
  canopyDepth: number;
  /** Whether anyone may mint into the tree; false keeps minting to the creator. */
  public?: boolean;
}

export interface CreateTreePlan {
  instructions: Instruction[];
  merkleTree: Address;
  treeConfig: Address;
  space: number;
  lamports: bigint;
}

/** Allocates the tree account (owned by account compression) and initialises it through Bubblegum. */
export async function buildCreateTree(input: CreateTreeInput): Promise<CreateTreePlan> {
  const problems = validateTree(input.maxDepth, input.maxBufferSize, input.canopyDepth);
  if (problems.length)
    throw new ChainError("invalid_tree", problems.map((p) => `${p.field}: ${p.message}`).join("; "));
  const { space, lamports } = treeCost(input.maxDepth, input.maxBufferSize, input.canopyDepth);
  const treeConfig = await findTreeConfig(input.merkleTree.address);
  const allocate = getCreateAccountInstruction({
    payer: input.payer,
    newAccount: input.merkleTree,
    lamports,
    space,
    programAddress: SPL_ACCOUNT_COMPRESSION_PROGRAM,
  });
  const data = new Writer()
    .raw(CREATE_TREE_DISCRIMINATOR)
    .u32(input.maxDepth)
    .u32(input.maxBufferSize)
    .u8(1) // Option<bool>: Some
    .u8(input.public ? 1 : 0)
    .done();
  const createTree: Instruction = {
    programAddress: BUBBLEGUM_PROGRAM,
    accounts: [
      meta(treeConfig, AccountRole.WRITABLE),
      meta(input.merkleTree.address, AccountRole.WRITABLE),
      meta(input.payer.address, AccountRole.WRITABLE_SIGNER),
      meta(input.payer.address, AccountRole.READONLY_SIGNER), // tree creator
      meta(SPL_NOOP_PROGRAM, AccountRole.READONLY),
      meta(SPL_ACCOUNT_COMPRESSION_PROGRAM, AccountRole.READONLY),
      meta(SYSTEM_PROGRAM_ADDRESS, AccountRole.READONLY),
    ],
    data,
  };
  return {
    instructions: [allocate, createTree],
    merkleTree: input.merkleTree.address,
    treeConfig,
    space,
    lamports,
  };
}

export interface CreateCollectionInput {
  payer: TransactionSigner;
  /** A fresh keypair: the collection NFT's mint. */
  mint: TransactionSigner;
  name: string;
  symbol: string;
  uri: string;
}

export interface CreateCollectionPlan {
  instructions: Instruction[];
  mint: Address;
  tokenAccount: Address;
  metadataAccount: Address;
  masterEditionAccount: Address;
}

export async function findMetadataAccounts(
  mint: Address,
): Promise<{ metadata: Address; masterEdition: Address }> {
  const seeds = [
    new TextEncoder().encode("metadata"),
    getAddressEncoder().encode(TOKEN_METADATA_PROGRAM),
    getAddressEncoder().encode(mint),
  ];
  const [metadata] = await getProgramDerivedAddress({ programAddress: TOKEN_METADATA_PROGRAM, seeds });
  const [masterEdition] = await getProgramDerivedAddress({
    programAddress: TOKEN_METADATA_PROGRAM,
    seeds: [...seeds, new TextEncoder().encode("edition")],
  });
  return { metadata, masterEdition };
}

/**
 * A sized collection NFT: mint (0 decimals), the payer's token account holding its single token,
 * metadata with `collection_details: V1 { size: 0 }`, and a master edition with max supply 0.
 */
export async function buildCreateCollection(input: CreateCollectionInput): Promise<CreateCollectionPlan> {
  const problems = collectionProblems(input);
  if (problems.length) throw new ChainError("invalid_collection", problems.join("; "));
  const payer = input.payer;
  const mint = input.mint.address;
  const [tokenAccount] = await findAssociatedTokenPda({
    owner: payer.address,
    mint,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  const { metadata, masterEdition } = await findMetadataAccounts(mint);
  const metadataData = new Writer()
    .u8(CREATE_METADATA_ACCOUNT_V3)
    .string(input.name)
    .string(input.symbol)
    .string(input.uri)
    .u16(0) // seller_fee_basis_points
    .u8(0) // creators: None
    .u8(0) // collection: None
    .u8(0) // uses: None
    .u8(1) // is_mutable
    .u8(1) // collection_details: Some(
    .u8(0) //   V1 {
    .u64(0n) //   size: 0 })
    .done();
  const editionData = new Writer().u8(CREATE_MASTER_EDITION_V3).u8(1).u64(0n).done(); // max_supply: Some(0)
  const instructions: Instruction[] = [
    getCreateAccountInstruction({
      payer,
      newAccount: input.mint,
      lamports: rentExemptLamports(getMintSize()),
      space: getMintSize(),
      programAddress: TOKEN_PROGRAM_ADDRESS,
    }),
    getInitializeMint2Instruction({
      mint,
      decimals: 0,
      mintAuthority: payer.address,
      freezeAuthority: payer.address,
    }),
    getCreateAssociatedTokenIdempotentInstruction({ payer, ata: tokenAccount, owner: payer.address, mint }),
    getMintToInstruction({ mint, token: tokenAccount, mintAuthority: payer, amount: 1n }),
    {
      programAddress: TOKEN_METADATA_PROGRAM,
      accounts: [
        meta(metadata, AccountRole.WRITABLE),
        meta(mint, AccountRole.READONLY),
        meta(payer.address, AccountRole.READONLY_SIGNER), // mint authority
        meta(payer.address, AccountRole.WRITABLE_SIGNER), // payer
        meta(payer.address, AccountRole.READONLY_SIGNER), // update authority
        meta(SYSTEM_PROGRAM_ADDRESS, AccountRole.READONLY),
      ],
      data: metadataData,
    },
    {
      programAddress: TOKEN_METADATA_PROGRAM,
      accounts: [
        meta(masterEdition, AccountRole.WRITABLE),
        meta(mint, AccountRole.WRITABLE),
        meta(payer.address, AccountRole.READONLY_SIGNER), // update authority
        meta(payer.address, AccountRole.READONLY_SIGNER), // mint authority
        meta(payer.address, AccountRole.WRITABLE_SIGNER), // payer
        meta(metadata, AccountRole.WRITABLE),
        meta(TOKEN_PROGRAM_ADDRESS, AccountRole.READONLY),
        meta(SYSTEM_PROGRAM_ADDRESS, AccountRole.READONLY),
      ],
      data: editionData,
    },
  ];
  return { instructions, mint, tokenAccount, metadataAccount: metadata, masterEditionAccount: masterEdition };
}

/**
 * The accounts a new collection's mint needs beside it: the wallet's token account for the mint,
 * its metadata and its master edition.
 */
export async function collectionAccounts(
  walletAccount: string,
  mint: Address,
): Promise<{ tokenAccount: Address; metadata: Address; masterEdition: Address }> {
  const [tokenAccount] = await findAssociatedTokenPda({
    owner: address(walletAccount),
    mint,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  return { tokenAccount, ...(await findMetadataAccounts(mint)) };
}
