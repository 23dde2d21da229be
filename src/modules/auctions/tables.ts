import {
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { Network } from "../../platform/chains/adapter.ts";
import { appPrimaryKey } from "../apps/references.ts";

const minor = (name: string) => numeric(name, { precision: 78, scale: 0, mode: "bigint" });

/** `pending` (hold on its way), `placed`, `outbid`, `refused`, `expired`, `won`, `failed` (docs/auctions.md). */
export const BID_STATUSES = Object.freeze([
  "pending",
  "placed",
  "outbid",
  "refused",
  "expired",
  "won",
  "failed",
] as const);
export type BidStatus = (typeof BID_STATUSES)[number];

export const auctions = pgTable(
  "auctions",
  {
    id: text("id").primaryKey(),
    appId: text("app_id").notNull().references(appPrimaryKey, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The starting amount, minor units of `currency`. */
    amount: minor("amount").notNull(),
    currency: text("currency").notNull(),
    minIncrement: minor("min_increment").notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    triggerId: text("trigger_id"),
    networkType: text("network_type").$type<Network>().notNull(),
    onBidPriceId: text("on_bid_price_id").notNull(),
    onEndPriceId: text("on_end_price_id").notNull(),
    expired: boolean("expired").notNull().default(false),
    views: integer("views").notNull().default(0),
    /** Set once by the closing job, in the transaction that picks the winner: closing runs once. */
    closedAt: timestamp("closed_at", { withTimezone: true }),
    winnerBidId: text("winner_bid_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("auctions_app_created_idx").on(t.appId, t.createdAt, t.id)],
);

/** A bidder: one per email and app, signed in by a one-time code. */
export const shoppers = pgTable(
  "shoppers",
  {
    id: text("id").primaryKey(),
    appId: text("app_id").notNull().references(appPrimaryKey, { onDelete: "cascade" }),
    email: text("email").notNull(),
    authMethod: text("auth_method").notNull().default("email"),
    disabled: boolean("disabled").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("shoppers_app_email_idx").on(t.appId, t.email)],
);

/** One-time sign-in codes: stored salted and hashed, short-lived, a few attempts each. */
export const shopperCodes = pgTable(
  "shopper_codes",
  {
    id: text("id").primaryKey(),
    appId: text("app_id").notNull().references(appPrimaryKey, { onDelete: "cascade" }),
    email: text("email").notNull(),
    codeHash: text("code_hash").notNull(),
    // The code, sealed, until its mail job has sent it: the job's data names the row, never the code.
    codeSealed: text("code_sealed"),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("shopper_codes_email_idx").on(t.appId, t.email, t.createdAt)],
);

export const shopperSessions = pgTable("shopper_sessions", {
  tokenHash: text("token_hash").primaryKey(),
  shopperId: text("shopper_id")
    .notNull()
    .references(() => shoppers.id, { onDelete: "cascade" }),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const bids = pgTable(
  "bids",
  {
    id: text("id").primaryKey(),
    appId: text("app_id").notNull().references(appPrimaryKey, { onDelete: "cascade" }),
    auctionId: text("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "cascade" }),
    shopperId: text("shopper_id")
      .notNull()
      .references(() => shoppers.id),
    paymentId: text("payment_id").notNull().unique(),
    /** In the auction's currency, minor units: what is compared and held. */
    amount: minor("amount").notNull(),
    currency: text("currency").notNull(),
    /** When the shopper bid in another currency: what they typed and the rate used, fixed at bid time. */
    conversion: jsonb("conversion").$type<{
      from_currency: string;
      from_amount: string;
      rate: { num: string; den: string };
      source: string;
    } | null>(),
    status: text("status").$type<BidStatus>().notNull(),
    reason: text("reason"),
    placedAt: timestamp("placed_at", { withTimezone: true }),
    /** The shopper's `Idempotency-Key`, so a retried bid is answered, never held twice. */
    idempotencyKey: text("idempotency_key"),
    /** SHA-256 of the bid's amount and currency: the same key with another bid is refused. */
    requestHash: text("request_hash"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("bids_auction_idx").on(t.auctionId, t.createdAt, t.id),
    uniqueIndex("bids_shopper_key_idx").on(t.shopperId, t.idempotencyKey),
  ],
);
