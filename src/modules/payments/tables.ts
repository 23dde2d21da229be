import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, numeric, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { apps } from "../apps/tables.ts";

const minor = (name: string) => numeric(name, { precision: 78, scale: 0, mode: "bigint" });

export const payments = pgTable(
  "payments",
  {
    id: text("id").primaryKey(),
    appId: text("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    priceId: text("price_id").notNull(),
    status: text("status").notNull(),
    /** `card` or `us_bank_account`: the interface's `payment_provider`. */
    method: text("method").notNull(),
    /** Which provider implementation holds the intent (`sandbox`, `stripe`). */
    providerId: text("provider_id").notNull(),
    intentId: text("intent_id"),
    /** The price's amount for this payment, minor units of `currency` (dynamic prices vary). */
    amount: minor("amount").notNull(),
    currency: text("currency").notNull(),
    /** What the shopper is charged, minor units of `charge_currency`: price_item.amount_total. */
    chargeAmount: minor("charge_amount").notNull(),
    chargeCurrency: text("charge_currency").notNull(),
    /** Shares of the charge, minor units of the charge currency, fixed at creation. */
    sellerAmount: minor("seller_amount").notNull(),
    appAmount: minor("app_amount").notNull(),
    platformAmount: minor("platform_amount").notNull(),
    capturedAmount: minor("captured_amount").notNull().default(sql`0`),
    refundedAmount: minor("refunded_amount").notNull().default(sql`0`),
    /** The interface's `price_item`, computed once; the rate used never changes afterwards. */
    priceItem: jsonb("price_item").$type<Record<string, unknown>>().notNull(),
    rate: jsonb("rate").$type<{ num: string; den: string }>().notNull(),
    triggerId: text("trigger_id"),
    triggerDataInput: jsonb("trigger_data_input").$type<Record<string, unknown>>().notNull(),
    /** The seller's KYC record when the price names one; its account receives the seller share. */
    kycId: text("kyc_id"),
    shopperEmail: text("shopper_email"),
    /** SHA-256 of the payment token the shopper's page uses. */
    paymentTokenHash: text("payment_token_hash").notNull().unique(),
    nextAction: jsonb("next_action").$type<{ type: string; url: string } | null>(),
    /** The chain step: what was sent (to follow it from any process) and what came back. */
    sentTransaction: jsonb("sent_transaction").$type<Record<string, unknown> | null>(),
    transactionId: text("transaction_id"),
    transactionUrl: text("transaction_url"),
    transactionResponse: jsonb("transaction_response").$type<Record<string, unknown>>().notNull(),
    confirmationStatus: jsonb("confirmation_status").$type<Record<string, unknown>>().notNull(),
    /**
     * Stop at `hold`: the contract call and the capture wait until the owner asks for them (a bid's
     * hold is captured only if the bid wins, by `executePayment`).
     */
    deferExecution: boolean("defer_execution").notNull().default(false),
    /** Where the provider authorisation stands: `none`, `requested`, `action_required`, `done`. */
    authState: text("auth_state").notNull().default("none"),
    /** Transfers already made: `{destination: transfer id}`, so a retried job skips them. */
    transfers: jsonb("transfers").$type<Record<string, string>>().notNull().default({}),
    /** Attempt counter for provider confirmations, so each new attempt has its own idempotency key. */
    confirmAttempts: integer("confirm_attempts").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("payments_app_created_idx").on(t.appId, t.createdAt.desc(), t.id.desc()),
    index("payments_price_idx").on(t.priceId),
    index("payments_intent_idx").on(t.intentId),
  ],
);

/** Every status change: who, when, from, to, why. */
export const paymentEvents = pgTable(
  "payment_events",
  {
    id: text("id").primaryKey(),
    paymentId: text("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    fromStatus: text("from_status"),
    toStatus: text("to_status").notNull(),
    actor: text("actor").notNull(),
    reason: text("reason").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("payment_events_payment_idx").on(t.paymentId, t.createdAt)],
);

/** Provider webhook events already applied: a duplicate delivery is applied once. */
export const providerEvents = pgTable("provider_events", {
  id: text("id").primaryKey(),
  providerId: text("provider_id").notNull(),
  type: text("type").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});
