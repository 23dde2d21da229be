import { boolean, index, numeric, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { Chain } from "../../platform/chains/adapter.ts";
import { appPrimaryKey } from "../apps/references.ts";

export const wallets = pgTable(
  "wallets",
  {
    id: text("id").primaryKey(),
    appId: text("app_id").notNull().references(appPrimaryKey, { onDelete: "cascade" }),
    name: text("name").notNull(),
    type: text("type").$type<Chain>().notNull(),
    // True when the service generated the key; false once key material was imported.
    managed: boolean("managed").notNull(),
    networkId: text("network_id").notNull(),
    testNetwork: boolean("test_network").notNull(),
    accountId: text("account_id").notNull(),
    // NEAR (`ed25519:…`) and WAX (`PUB_K1_…`) public keys; EVM and Solana derive theirs from the account.
    publicKey: text("public_key"),
    // WAX permission the key signs with (`active` unless told).
    permission: text("permission"),
    // The private key, sealed by envelope encryption (src/platform/crypto/envelope.ts): the id of
    // the master key that wrapped the data key, the wrapped data key, and the encrypted secret.
    secretKeyId: text("secret_key_id").notNull(),
    secretWrappedKey: text("secret_wrapped_key").notNull(),
    secretCiphertext: text("secret_ciphertext").notNull(),
    /**
     * Below this native balance (the chain's smallest unit) `wallet.balance_low` is sent; null: the
     * chain's default (balance.ts, docs/wallets.md).
     */
    balanceLowThreshold: numeric("balance_low_threshold", { precision: 78, scale: 0, mode: "bigint" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("wallets_app_list_idx").on(t.appId, t.createdAt, t.id),
    index("wallets_secret_key_idx").on(t.secretKeyId),
  ],
);

/**
 * The wallet's native balance as last read from its chain (kept apart from `wallets`, whose row
 * version the payment create watches, so a balance read never makes a create read again).
 */
export const walletBalances = pgTable("wallet_balances", {
  walletId: text("wallet_id")
    .primaryKey()
    .references(() => wallets.id, { onDelete: "cascade" }),
  /** The chain's smallest unit (wei, lamports, yoctoNEAR, 10^-8 WAX). */
  balance: numeric("balance", { precision: 78, scale: 0, mode: "bigint" }).notNull(),
  checkedAt: timestamp("checked_at", { withTimezone: true }).notNull(),
  /** Set when `wallet.balance_low` was sent for the balance's fall, cleared once it is back above. */
  lowSince: timestamp("low_since", { withTimezone: true }),
});
