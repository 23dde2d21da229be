import type { SQL } from "drizzle-orm";
import type { Executor } from "../../platform/db/index.ts";
import type { LedgerEvent, PaymentFigures } from "../ledger/entries.ts";
import { eventsInsert, eventsInsertWhen, postEvents } from "../ledger/post.ts";
import type { PaymentRow } from "./lifecycle.ts";

// The payments module's one way into the books (docs/ledger.md): the ledger is given a payment's
// figures and the event, never the payments table.

export function figuresOf(row: PaymentRow): PaymentFigures {
  return {
    paymentId: row.id,
    appId: row.appId,
    currency: row.chargeCurrency,
    total: row.chargeAmount,
    platform: row.platformAmount,
    app: row.appAmount,
    seller: row.sellerAmount,
    sellerId: row.kycId,
  };
}

/**
 * What a status change moved, from the row before it to the row after it: a hold (and, for a bank
 * debit, its collection), a hold released (cancelled or failed before capture), or collected
 * money the bank took back (failed after collection). Captures, refunds and transfers are posted
 * where they happen (pipeline/capture.ts, refund.ts, transfer-to-seller.ts, reverse-transfers.ts).
 */
export function eventsOfMove(before: PaymentRow, after: PaymentRow): LedgerEvent[] {
  if (after.status === "hold") {
    return after.capturedAmount > 0n ? [{ type: "hold" }, { type: "capture" }] : [{ type: "hold" }];
  }
  if (before.status === "hold" && before.capturedAmount === 0n) {
    if (after.status === "cancelled" || after.status === "failed") return [{ type: "void" }];
  }
  if (after.status === "failed" && before.capturedAmount > 0n) {
    return [{ type: "bank_return", refunded: before.refundedAmount }];
  }
  return [];
}

/** `postPaymentEvents`'s INSERT as SQL, to be part of the caller's statement (undefined: nothing). */
export function paymentEventsInsert(db: Executor, row: PaymentRow, events: LedgerEvent[], at: Date) {
  return eventsInsert(db, figuresOf(row), events, at);
}

/** `paymentEventsInsert` as parts of a statement whose writes are made only where `when` holds. */
export function paymentEventsInsertWhen(row: PaymentRow, events: LedgerEvent[], at: Date, when: SQL) {
  return eventsInsertWhen(figuresOf(row), events, at, when);
}

/** Posts `events` of the payment in the caller's transaction (one INSERT). */
export function postPaymentEvents(tx: Executor, row: PaymentRow, events: LedgerEvent[], at: Date) {
  return events.length === 0 ? Promise.resolve() : postEvents(tx, figuresOf(row), events, at);
}
