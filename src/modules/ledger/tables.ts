import { sql } from "drizzle-orm";
import {
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const minor = (name: string) => numeric(name, { precision: 78, scale: 0, mode: "bigint" });

/** What caused a ledger transaction (docs/ledger.md, "Events"). */
export const LEDGER_TYPES = Object.freeze([
  "hold",
  "capture",
  "void",
  "refund",
  "refund_settled",
  "transfer",
  "transfer_reversal",
  "bank_return",
  "payout_moved",
] as const);
export type LedgerType = (typeof LEDGER_TYPES)[number];

/**
 * The books: one row per entry, immutable (a trigger refuses UPDATE, DELETE and TRUNCATE), grouped
 * by `transaction_id` into ledger transactions whose amounts sum to zero per currency (a deferred
 * constraint trigger checks it at commit). An account is `(app_id, currency, account)`: nothing
 * to create first, so the hot paths write one multi-row INSERT and nothing else.
 *
 * `transaction_id` is derived from what caused it (`<payment>:capture`, `<payment>:refund:2`), and
 * `(transaction_id, line)` is unique: a retried job or a replayed request that posts again posts
 * nothing (ON CONFLICT DO NOTHING), so an event is in the books once whatever crashes in between.
 */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: text("id").primaryKey(),
    transactionId: text("transaction_id").notNull(),
    line: smallint("line").notNull(),
    appId: text("app_id").notNull(),
    /** `shopper_funds_held`, `app_share`, `seller_payable:<kyc id>`… (docs/ledger.md, "Accounts"). */
    account: text("account").notNull(),
    currency: text("currency").notNull(),
    /** Signed minor units: money into the account is positive, out of it negative. */
    amount: minor("amount").notNull(),
    type: text("type").$type<LedgerType>().notNull(),
    paymentId: text("payment_id"),
    /** The provider's own object for the movement (`tr_…`, `trr_…`, `re_…`), when there is one. */
    reference: text("reference"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("ledger_entries_transaction_line_idx").on(t.transactionId, t.line),
    index("ledger_entries_app_created_idx").on(t.appId, t.createdAt, t.id),
    index("ledger_entries_payment_idx").on(t.paymentId),
    // The balance transactions' type filter (a rare type among many captures), newest first.
    index("ledger_entries_app_type_idx").on(t.appId, t.type, t.createdAt, t.id),
  ],
);

/** A reconciliation run: what it compared and what disagreed (docs/ledger.md, "Reconciliation"). */
export const reconciliations = pgTable(
  "reconciliations",
  {
    id: text("id").primaryKey(),
    appId: text("app_id").notNull(),
    /** `running`, `clean` (nothing disagreed) or `mismatched`. */
    status: text("status").notNull(),
    /** How the run started: `schedule` or `api`. */
    trigger: text("trigger").notNull(),
    paymentsChecked: integer("payments_checked").notNull().default(0),
    mismatches: jsonb("mismatches").$type<Mismatch[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("reconciliations_app_created_idx").on(t.appId, t.createdAt, t.id)],
);

export interface Mismatch {
  /** `provider_amount`, `provider_refunds`, `chain_unconfirmed`, `chain_unaccounted`, `unbalanced`… */
  kind: string;
  payment_id: string | null;
  /** What the ledger says and what the other side says, as text. */
  ledger: string | null;
  other: string | null;
  message: string;
}
