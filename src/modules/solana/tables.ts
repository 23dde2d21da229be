import { bigint, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { Network, StoredTransaction } from "../../platform/chains/adapter.ts";
import { appPrimaryKey } from "../apps/references.ts";
import { walletPrimaryKey } from "../wallets/references.ts";

// The state of the on-chain transaction that creates a tree or a collection.
// pending: not yet sent or not yet final; confirmed: final on chain; failed: refused or dropped.
export const CREATION_STATUSES = Object.freeze(["pending", "confirmed", "failed"] as const);
export type CreationStatus = (typeof CREATION_STATUSES)[number];

/** Whose a tree or collection is: its app, the wallet that pays for it, and the wallet's network. */
const ownerColumns = () => ({
  id: text("id").primaryKey(),
  appId: text("app_id").notNull().references(appPrimaryKey, { onDelete: "cascade" }),
  walletId: text("wallet_id").notNull().references(walletPrimaryKey, { onDelete: "cascade" }),
  network: text("network").$type<Network>().notNull(),
});

const chainColumns = () => ({
  status: text("status").$type<CreationStatus>().notNull().default("pending"),
  // Empty until the job has sent the transaction.
  txSignature: text("tx_signature").notNull().default(""),
  // The adapter's SentTransaction, so any worker can follow it.
  sentTransaction: jsonb("sent_transaction").$type<StoredTransaction>(),
  sendAttempts: integer("send_attempts").notNull().default(0),
  error: text("error"),
  // The new account's secret key (tree account or collection mint), sealed like wallet keys:
  // kept so a retried send re-sends the same account instead of creating another.
  secretKeyId: text("secret_key_id").notNull(),
  secretWrappedKey: text("secret_wrapped_key").notNull(),
  secretCiphertext: text("secret_ciphertext").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const solanaTrees = pgTable(
  "solana_trees",
  {
    ...ownerColumns(),
    address: text("address").notNull(),
    maxDepth: integer("max_depth").notNull(),
    maxBufferSize: integer("max_buffer_size").notNull(),
    canopyDepth: integer("canopy_depth").notNull(),
    accountSize: integer("account_size").notNull(),
    rentLamports: bigint("rent_lamports", { mode: "bigint" }).notNull(),
    ...chainColumns(),
  },
  (t) => [index("solana_trees_wallet_list_idx").on(t.appId, t.walletId, t.createdAt, t.id)],
);

export const solanaCollections = pgTable(
  "solana_collections",
  {
    ...ownerColumns(),
    name: text("name").notNull(),
    symbol: text("symbol").notNull(),
    uri: text("uri").notNull(),
    mintAddress: text("mint_address").notNull(),
    tokenAccountAddress: text("token_account_address").notNull(),
    metadataAccountAddress: text("metadata_account_address").notNull(),
    masterEditionAccountAddress: text("master_edition_account_address").notNull(),
    ...chainColumns(),
  },
  (t) => [index("solana_collections_wallet_list_idx").on(t.appId, t.walletId, t.createdAt, t.id)],
);

export type SolanaTreeRow = typeof solanaTrees.$inferSelect;
export type SolanaCollectionRow = typeof solanaCollections.$inferSelect;
