import { boolean, index, integer, jsonb, numeric, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { apps } from "../apps/tables.ts";

export const prices = pgTable(
  "prices",
  {
    id: text("id").primaryKey(),
    appId: text("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
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
    networkType: text("network_type").notNull(),
    contract: text("contract"),
    chain: text("chain"),
    category: text("category").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("prices_app_created_idx").on(t.appId, t.createdAt, t.id)],
);
