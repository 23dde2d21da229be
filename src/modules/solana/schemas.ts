import { Type } from "typebox";
import { COLLECTION_LIMITS } from "../../platform/chains/solana-compression.ts";
import { oneOf } from "../../platform/http/literals.ts";
import { Body, Nullable, nameSchemas, Timestamp } from "../../platform/http/schemas.ts";
import { CREATION_STATUSES } from "./tables.ts";

export const SolanaWalletParams = Type.Object({
  app_id: Type.String({ maxLength: 64 }),
  wallet_id: Type.String({ maxLength: 64 }),
});

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
      max_depth: Type.Integer({ minimum: 1, maximum: 64 }),
      max_buffer_size: Type.Integer({ minimum: 1, maximum: 65536 }),
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

export const Tree = Type.Object({
  id: Type.String(),
  address: Type.String({ description: "The tree account (base58), known at creation" }),
  ...chainFields,
  max_depth: Type.Integer(),
  max_buffer_size: Type.Integer(),
  canopy_depth: Type.Integer(),
  account_size: Type.Integer({ description: "Bytes of the tree account, canopy included" }),
  rent_lamports: Type.String({
    description:
      "Rent-exempt minimum of the tree account in lamports (decimal integer string), paid by the wallet",
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const CreateCollectionBody = Body({
  name: Type.String({
    minLength: 1,
    maxLength: COLLECTION_LIMITS.name,
    description: "At most 32 bytes of UTF-8",
  }),
  symbol: Type.String({ maxLength: COLLECTION_LIMITS.symbol, description: "At most 10 bytes of UTF-8" }),
  uri: Type.String({
    minLength: 1,
    maxLength: COLLECTION_LIMITS.uri,
    description: "At most 200 bytes of UTF-8",
  }),
});

export const Collection = Type.Object({
  id: Type.String(),
  name: Type.String(),
  symbol: Type.String(),
  uri: Type.String(),
  mint_address: Type.String({ description: "The collection NFT's mint, known at creation" }),
  token_account_address: Type.String({
    description: "The wallet's associated token account holding the NFT",
  }),
  metadata_account_address: Type.String(),
  master_edition_account_address: Type.String(),
  ...chainFields,
  created_at: Timestamp,
  updated_at: Timestamp,
});

// Named in the OpenAPI document (components.schemas), referenced wherever they appear.
nameSchemas({ Tree, Collection });
