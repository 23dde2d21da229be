import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { appPrimaryKey } from "../apps/references.ts";

export const kycs = pgTable(
  "kycs",
  {
    id: text("id").primaryKey(),
    appId: text("app_id").notNull().references(appPrimaryKey, { onDelete: "cascade" }),
    identifier: text("identifier").notNull(),
    type: text("type").notNull(),
    accountType: text("account_type").notNull(),
    email: text("email"),
    active: boolean("active").notNull().default(true),
    // SHA-256 of the edit token, for the widget's lookups; the token itself only sealed (AES-256-GCM).
    editTokenHash: text("edit_token_hash").notNull().unique(),
    editTokenSealed: text("edit_token_sealed").notNull(),
    provider: text("provider").notNull(),
    providerAccountId: text("provider_account_id").unique(),
    accountExists: boolean("account_exists").notNull().default(false),
    country: text("country"),
    businessStatus: text("business_status").notNull().default("pending"),
    detailsSubmitted: boolean("details_submitted").notNull().default(false),
    chargesEnabled: boolean("charges_enabled").notNull().default(false),
    payoutsEnabled: boolean("payouts_enabled").notNull().default(false),
    needsDocuments: boolean("needs_documents").notNull().default(true),
    payoutSchedule: jsonb("payout_schedule"),
    requiredDocuments: jsonb("required_documents"),
    requirements: jsonb("requirements"),
    capabilities: jsonb("capabilities"),
    bankAccounts: jsonb("bank_accounts"),
    cards: jsonb("cards"),
    // Provider actions asked for by the widget and not yet applied: the page refreshes meanwhile.
    pendingActions: integer("pending_actions").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One record per seller identifier and app: POST races end in `on conflict do nothing`.
    uniqueIndex("kycs_app_identifier_idx").on(t.appId, t.identifier),
    index("kycs_app_list_idx").on(t.appId, t.createdAt, t.id),
  ],
);

/** Every business_status change; no foreign key, so the history outlives a deleted record. */
export const kycEvents = pgTable(
  "kyc_events",
  {
    id: text("id").primaryKey(),
    appId: text("app_id").notNull(),
    kycId: text("kyc_id"),
    type: text("type").notNull(),
    payload: jsonb("payload").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("kyc_events_app_idx").on(t.appId, t.createdAt), index("kyc_events_kyc_idx").on(t.kycId)],
);
