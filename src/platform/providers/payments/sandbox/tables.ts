import { sql } from "drizzle-orm";
import { bigint, boolean, index, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

// The sandbox provider keeps its state in the database, like the real provider keeps it on its
// side: it survives restarts and every API and worker process sees the same intents.

export const sandboxIntents = pgTable("sandbox_intents", {
  id: text("id").primaryKey(),
  // The connected account the intent lives on (direct charges); empty for the platform.
  account: text("account").notNull().default(""),
  method: text("method").notNull(),
  amount: bigint("amount", { mode: "bigint" }).notNull(),
  amountCapturable: bigint("amount_capturable", { mode: "bigint" }).notNull().default(sql`0`),
  amountReceived: bigint("amount_received", { mode: "bigint" }).notNull().default(sql`0`),
  amountRefunded: bigint("amount_refunded", { mode: "bigint" }).notNull().default(sql`0`),
  currency: text("currency").notNull(),
  status: text("status").notNull(),
  captureMethod: text("capture_method").notNull(),
  paymentMethodLabel: text("payment_method_label"),
  nextAction: jsonb("next_action"),
  lastError: jsonb("last_error"),
  metadata: jsonb("metadata").notNull().default({}),
  transferGroup: text("transfer_group"),
  // A bank debit settles some time after it is confirmed, as ACH does; with this outcome.
  settlesAt: timestamp("settles_at", { withTimezone: true }),
  settleOutcome: text("settle_outcome"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const sandboxRefunds = pgTable(
  "sandbox_refunds",
  {
    id: text("id").primaryKey(),
    intentId: text("intent_id")
      .notNull()
      .references(() => sandboxIntents.id),
    amount: bigint("amount", { mode: "bigint" }).notNull(),
    status: text("status").notNull(),
    reason: text("reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sandbox_refunds_intent_idx").on(t.intentId)],
);

export const sandboxTransfers = pgTable(
  "sandbox_transfers",
  {
    id: text("id").primaryKey(),
    amount: bigint("amount", { mode: "bigint" }).notNull(),
    currency: text("currency").notNull(),
    destination: text("destination").notNull(),
    sourceIntentId: text("source_intent_id").references(() => sandboxIntents.id),
    transferGroup: text("transfer_group"),
    metadata: jsonb("metadata").notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("sandbox_transfers_source_idx").on(t.sourceIntentId),
    index("sandbox_transfers_group_idx").on(t.transferGroup),
  ],
);

/** Transfers taken back from their connected account (Stripe's transfer reversals). */
export const sandboxTransferReversals = pgTable(
  "sandbox_transfer_reversals",
  {
    id: text("id").primaryKey(),
    transferId: text("transfer_id")
      .notNull()
      .references(() => sandboxTransfers.id),
    amount: bigint("amount", { mode: "bigint" }).notNull(),
    currency: text("currency").notNull(),
    metadata: jsonb("metadata").notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sandbox_transfer_reversals_transfer_idx").on(t.transferId)],
);

/**
 * One row per idempotency key, as Stripe keeps them: the first answer is stored and replayed for a
 * repeat; the same key for another request is refused.
 */
export const sandboxRequests = pgTable(
  "sandbox_requests",
  {
    account: text("account").notNull().default(""),
    idempotencyKey: text("idempotency_key").notNull(),
    // Operation and parameters, hashed: a key reused for another request is recognised.
    fingerprint: text("fingerprint").notNull(),
    response: jsonb("response"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.account, t.idempotencyKey] })],
);

/** Every intent status change, as the provider's webhook events: delivered by whoever reads them. */
export const sandboxEvents = pgTable(
  "sandbox_events",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    intentId: text("intent_id").notNull(),
    account: text("account").notNull().default(""),
    data: jsonb("data").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sandbox_events_intent_idx").on(t.intentId)],
);

/** Switches shared by every process, e.g. the outage mode fault tests turn on. */
export const sandboxFlags = pgTable("sandbox_flags", {
  name: text("name").primaryKey(),
  enabled: boolean("enabled").notNull(),
});
