import { boolean, index, integer, jsonb, numeric, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { Chain, Network } from "../../platform/chains/adapter.ts";
import { appPrimaryKey } from "../apps/references.ts";

/** `static`: a fixed amount; `dynamic`: the payment names its amount, at least the price's. */
export const PRICE_TYPES = Object.freeze(["static", "dynamic"] as const);
/** `payment` for a plain price; an auction owns one `bid` and one `auction` price. */
export const PRICE_CATEGORIES = Object.freeze(["payment", "bid", "auction"] as const);

export const prices = pgTable(
  "prices",
  {
    id: text("id").primaryKey(),
    appId: text("app_id").notNull().references(appPrimaryKey, { onDelete: "cascade" }),
    type: text("type").$type<(typeof PRICE_TYPES)[number]>().notNull(),
    // Nullable text without a foreign key for now: the triggers and KYC tables are built in
    // parallel; service.checkLinkedRecords is where their same-app check goes.
    kycId: text("kyc_id"),
    triggerId: text("trigger_id"),
    currency: text("currency").notNull(),
    // Minor units. numeric(78, 0) rather than bigint: a price in yoctoNEAR (10^24 per NEAR)
    // overflows a 64-bit integer.
    amount: numeric("amount", { precision: 78, scale: 0, mode: "bigint" }).notNull(),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    name: text("name").notNull(),
    // Set by PATCH `expired: true`, by a delete of a price with payments, or when an auction ends;
    // `expires_at` passing makes the price read as expired without a write.
    expired: boolean("expired").notNull().default(false),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    views: integer("views").notNull().default(0),
    networkType: text("network_type").$type<Network>().notNull(),
    contract: text("contract"),
    chain: text("chain").$type<Chain>(),
    category: text("category").$type<(typeof PRICE_CATEGORIES)[number]>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("prices_app_created_idx").on(t.appId, t.createdAt, t.id)],
);
