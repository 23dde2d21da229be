import { Type } from "typebox";
import { COLLECTION_LIMITS } from "../../platform/chains/solana-collections.ts";
import { oneOf } from "../../platform/http/literals.ts";
import { AppAndIdParams } from "../../platform/http/params.ts";
import { nameSchemas, withExamples } from "../../platform/http/schema-docs.ts";
import { Body, Nullable, Timestamp } from "../../platform/http/schemas.ts";
import { CREATION_STATUSES } from "./tables.ts";

export const SolanaWalletParams = AppAndIdParams(
  "wallet_id",
  "A Solana wallet of the app, which pays and signs",
);

const ChainStatus = oneOf(CREATION_STATUSES, {
  description:
    "The creating transaction: `pending` until it is sent and finalized, `confirmed` once finalized, `failed` if the chain refused or dropped it (see `error`)",
});
const TxSignature = Type.String({
  description: "The creating transaction's signature; an empty string until the job has sent it",
});
const chainFields = {
  tx_signature: TxSignature,
  status: ChainStatus,
  error: Nullable(Type.String({ description: "Why the transaction failed; null otherwise" })),
};

export const CreateTreeBody = Body({
  max_depth_size_pair: Body(
    {
      max_depth: Type.Integer({
        minimum: 1,
        maximum: 64,
        description: "Tree depth: it holds 2^max_depth NFTs",
      }),
      max_buffer_size: Type.Integer({
        minimum: 1,
        maximum: 65536,
        description: "Changes the tree accepts concurrently (in one slot)",
      }),
    },
    "One of the (max_depth, max_buffer_size) pairs the SPL account-compression program accepts",
  ),
  canopy_depth: Type.Integer({
    minimum: 0,
    maximum: 64,
    description:
      "Levels cached on chain; 0 <= canopy_depth < max_depth, and deep enough for proofs to fit a transaction",
  }),
});

export const Tree = Type.Object(
  {
    id: Type.String({ description: "The tree's id (`tree_…`)" }),
    address: Type.String({ description: "The tree account (base58), known at creation" }),
    ...chainFields,
    max_depth: Type.Integer({ description: "Tree depth: it holds 2^max_depth NFTs" }),
    max_buffer_size: Type.Integer({ description: "Changes the tree accepts concurrently" }),
    canopy_depth: Type.Integer({ description: "Levels of the tree cached on chain" }),
    account_size: Type.Integer({ description: "Bytes of the tree account, canopy included" }),
    rent_lamports: Type.String({
      description:
        "Rent-exempt minimum of the tree account in lamports (decimal integer string), paid by the wallet",
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: "A compressed-NFT (Bubblegum) Merkle tree paid by a wallet" },
);

export const CreateCollectionBody = Body({
  name: Type.String({
    minLength: 1,
    maxLength: COLLECTION_LIMITS.name,
    description: "The collection's name: at most 32 bytes of UTF-8",
  }),
  symbol: Type.String({
    maxLength: COLLECTION_LIMITS.symbol,
    description: "The collection's symbol: at most 10 bytes of UTF-8",
  }),
  uri: Type.String({
    minLength: 1,
    maxLength: COLLECTION_LIMITS.uri,
    description: "The metadata JSON's URI: at most 200 bytes of UTF-8",
  }),
});

export const Collection = Type.Object(
  {
    id: Type.String({ description: "The collection's id (`col_…`)" }),
    name: Type.String({ description: "The collection's name" }),
    symbol: Type.String({ description: "The collection's symbol" }),
    uri: Type.String({ description: "The metadata JSON's URI" }),
    mint_address: Type.String({ description: "The collection NFT's mint, known at creation" }),
    token_account_address: Type.String({
      description: "The wallet's associated token account holding the NFT",
    }),
    metadata_account_address: Type.String({ description: "The mint's Metaplex metadata account" }),
    master_edition_account_address: Type.String({
      description: "The mint's Metaplex master edition account",
    }),
    ...chainFields,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: "A sized collection NFT (Metaplex) owned by a wallet" },
);

withExamples(CreateTreeBody, {
  max_depth_size_pair: { max_depth: 14, max_buffer_size: 64 },
  canopy_depth: 10,
});
withExamples(Tree, {
  id: "tree_01m87s3v8k4r2fjc23vtvkbtjy",
  address: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
  tx_signature: "",
  status: "pending",
  error: null,
  max_depth: 14,
  max_buffer_size: 64,
  canopy_depth: 10,
  account_size: 97272,
  rent_lamports: "677922240",
  created_at: "2026-11-24T21:30:00.000Z",
  updated_at: "2026-11-24T21:30:00.000Z",
});
withExamples(CreateCollectionBody, {
  name: "Autumn tickets",
  symbol: "TIX",
  uri: "https://shop.example.com/nft/collection.json",
});
withExamples(Collection, {
  id: "col_01m87s3v8k4r2fjc23vtvkbtjz",
  name: "Autumn tickets",
  symbol: "TIX",
  uri: "https://shop.example.com/nft/collection.json",
  mint_address: "7EYnhQoR9YM3N7UoaKRoA44Uy8JeaZV3qyouov87awMs",
  token_account_address: "CuieVDEDtLo7FypA9SbLM9saXFdb1dsshEkyErMqkRQq",
  metadata_account_address: "4fYNw3dojWmQ4dXtSGE9epjRGy9pFSx62YypT7avPYvA",
  master_edition_account_address: "8HYXjZb1wUsX1B8L7HAhVBaa2hxUv6dFJzCmJ6eJkyyM",
  tx_signature: "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW",
  status: "confirmed",
  error: null,
  created_at: "2026-11-24T21:30:00.000Z",
  updated_at: "2026-11-24T21:30:20.000Z",
});

// Named in the OpenAPI document (components.schemas), referenced wherever they appear.
nameSchemas({ Tree, Collection });
