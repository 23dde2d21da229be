import { sql } from "drizzle-orm";
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
import type { StoredTransaction } from "../../platform/chains/adapter.ts";
import type { PriceItem } from "../../platform/money/price-item.ts";

/** Every status a payment can be in; the moves between them are in lifecycle.ts (docs/payments.md, States). */
export const PAYMENT_STATUSES = Object.freeze([
  "pending",
  "hold",
  "paid",
  "failed",
  "failed-captured",
  "failed-transfers",
  "refunded",
  "cancelled",
] as const);
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** The stored contract call: signed bytes until broadcast, and which sending of the call it is. */
export type RecordedTransaction = StoredTransaction & { sending?: number };

const minor = (name: string) => numeric(name, { precision: 78, scale: 0, mode: "bigint" });

export const payments = pgTable(
  "payments",
  {
    id: text("id").primaryKey(),
    /**
     * No foreign key on purpose: a payment is a financial record and outlives its app. Deleting an
     * app (refused while money is in flight) keeps its payments and their events; the app's id is
     * then in `deleted_apps` (docs/payments.md, "Deleting an app").
     */
    appId: text("app_id").notNull(),
    priceId: text("price_id").notNull(),
    status: text("status").$type<PaymentStatus>().notNull(),
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
    priceItem: jsonb("price_item").$type<PriceItem>().notNull(),
    rate: jsonb("rate").$type<{ num: string; den: string }>().notNull(),
    triggerId: text("trigger_id"),
    triggerDataInput: jsonb("trigger_data_input").$type<Record<string, unknown>>().notNull(),
    /** The seller's KYC record when the price names one; its account receives the seller share. */
    kycId: text("kyc_id"),
    shopperEmail: text("shopper_email"),
    /** SHA-256 of the payment token the shopper's page uses: how a token is looked up. */
    paymentTokenHash: text("payment_token_hash").notNull().unique(),
    /**
     * The same token sealed with the master key (bound to the payment id), so reads by the app's
     * own credentials can answer it; null for payments made before it was kept.
     */
    paymentTokenSealed: text("payment_token_sealed"),
    nextAction: jsonb("next_action").$type<{ type: string; url: string } | null>(),
    /** The chain step: what was sent (to follow it from any process) and what came back. */
    sentTransaction: jsonb("sent_transaction").$type<RecordedTransaction | null>(),
    transactionId: text("transaction_id"),
    /**
     * When the contract call was first signed, set in the statement that stores the signed bytes
     * (before any broadcast). From then on the call may be on its way, so the app can no longer
     * cancel: the chain's outcome decides (docs/payments.md, "Once a call is signed").
     */
    signedAt: timestamp("signed_at", { withTimezone: true }),
    transactionUrl: text("transaction_url"),
    transactionResponse: jsonb("transaction_response").$type<Record<string, unknown>>().notNull(),
    confirmationStatus: jsonb("confirmation_status").$type<Record<string, unknown>>().notNull(),
    /**
     * Stop at `hold`: the contract call and the capture wait until the owner asks for them (a bid's
     * hold is captured only if the bid wins, by `executePayment`).
     */
    deferExecution: boolean("defer_execution").notNull().default(false),
    /**
     * When the owner of a deferred payment asked for its contract call and capture
     * (`executePayment`: the auction closed with this bid the winner). From then on a payment
     * without a contract call is being captured, so the app can no longer cancel it.
     */
    executeAskedAt: timestamp("execute_asked_at", { withTimezone: true }),
    /** Where the provider authorisation stands: `none`, `requested`, `action_required`, `done`. */
    authState: text("auth_state").notNull().default("none"),
    /**
     * Transfers already made, by share (`{seller: "tr_…"}`), so a retried job skips them; and their
     * reversals once refunded (`{"seller:reversal": "trr_…"}`).
     */
    transfers: jsonb("transfers").$type<Record<string, string>>().notNull().default({}),
    /**
     * Bumped each time the provider refused the transfers (nothing was made): the next try is a
     * new request with its own idempotency key, not a replay of the refusal.
     */
    transferRound: integer("transfer_round").notNull().default(0),
    /**
     * The idempotency key of a seller transfer asked for and not yet answered (set before the
     * call; cleared once it is recorded or refused). While set, the share may already be with the
     * seller, so the payout cannot be re-pointed, and a refund first learns the transfer's outcome.
     * The key rather than a flag: it is what the provider's request log shows, for an operator.
     */
    transferPending: text("transfer_pending"),
    /**
     * The Idempotency-Key (with its caller's scope) of the confirm that asked for the current
     * authorisation: a retry of that confirm whose first answer was lost (its process died after
     * the change committed) is answered with the payment, not refused as already being paid.
     */
    confirmKey: text("confirm_key"),
    /**
     * The Idempotency-Key (with its caller's scope) of the create that wrote this payment: a retry
     * of that create whose answer was lost (its process died after the write) finds the payment
     * and answers it, instead of opening a second one.
     */
    createKey: text("create_key"),
    /**
     * The last cancel, refund or retry (`<command> <scope> <Idempotency-Key>`), written with its
     * change: the same command retried after its answer was lost is answered with the payment.
     */
    commandKey: text("command_key"),
    /** Attempt counter for provider confirmations, so each new attempt has its own idempotency key. */
    confirmAttempts: integer("confirm_attempts").notNull().default(0),
    /**
     * Bumped each time `retry` reopens a card payment whose contract call the chain refused (its
     * hold was released): the reopened payment gets a new provider intent, under keys of its own.
     */
    intentRound: integer("intent_round").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("payments_app_created_idx").on(t.appId, t.createdAt, t.id),
    // A price's payments newest first (the list's price_id filter, its count read from the index
    // alone, app_id included), and whether a price has payments at all.
    index("payments_price_created_idx").on(t.priceId, t.appId, t.createdAt, t.id),
    // A provider's webhook finds its payment by intent (provider-webhooks.ts, returns.ts): a create
    // has none yet, so it writes no entry here until the intent exists.
    index("payments_intent_idx").on(t.intentId).where(sql`${t.intentId} is not null`),
    uniqueIndex("payments_app_create_key_idx")
      .on(t.appId, t.createKey)
      .where(sql`${t.createKey} is not null`),
    // A seller's payouts coming back resumes their payments waiting at failed-transfers: few rows.
    index("payments_failed_transfers_idx").on(t.kycId).where(sql`${t.status} = 'failed-transfers'`),
    // The expiry sweep walks pending payments oldest first (expire.ts): only the pending ones.
    index("payments_pending_created_idx").on(t.createdAt).where(sql`${t.status} = 'pending'`),
    // A seller record's delete counts its open payments (kyc/service.ts): only the open ones of a
    // seller (a payment without one, as most are, writes no entry when it is created).
    index("payments_kyc_open_idx")
      .on(t.kycId)
      .where(
        sql`${t.kycId} is not null and ${t.status} in ('pending', 'hold', 'failed-captured', 'failed-transfers')`,
      ),
  ],
);

/** Every status change: who, when, from, to, why. */
export const paymentEvents = pgTable(
  "payment_events",
  {
    id: text("id").primaryKey(),
    // No foreign key (migration 0025): every event is written by the statement or transaction that
    // writes its payment, and payments are never deleted, so the key's check (a lookup and a lock
    // of the payment's row for each event) guarded nothing; it cost a create about a tenth of its
    // rate (docs/decisions.md §17).
    paymentId: text("payment_id").notNull(),
    fromStatus: text("from_status").$type<PaymentStatus>(),
    toStatus: text("to_status").$type<PaymentStatus>().notNull(),
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
