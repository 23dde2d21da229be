import { and, type Column, desc, eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Tx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/http/errors.ts";
import { EXECUTE_JOB, REFUND_JOB, RELEASE_HOLD_JOB } from "./job-names.ts";
import { type PaymentRow, transition } from "./lifecycle.ts";
import { paymentEvents, payments } from "./tables.ts";

// What the auctions module asks of the payments behind its bids, inside its own transaction: it
// never names the payments tables itself (test/platform/layers.test.ts).

/** The payment behind a bid (never deleted: a bid's payment is always there), unlocked. */
export async function paymentOfBid(tx: Tx, paymentId: string): Promise<PaymentRow> {
  const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId));
  if (!payment) throw new Error(`Payment ${paymentId} of a bid is missing`);
  return payment;
}

/**
 * The payment whose id is `paymentId` (a column of the caller's statement), as a join of that
 * statement, so bids are read with their payments in one statement: `.innerJoin(part.table,
 * part.on)`, selecting `part.columns` (the whole row); `held` is true while its card hold stands.
 */
export function paymentJoin(paymentId: Column) {
  return {
    table: payments,
    on: eq(payments.id, paymentId),
    columns: payments,
    held: eq(payments.status, "hold"),
  };
}

/** Why the payment reached its current status, as its last event into that status says. */
export async function reasonForStatus(tx: Tx, payment: PaymentRow): Promise<string | undefined> {
  const [last] = await tx
    .select({ reason: paymentEvents.reason })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.paymentId, payment.id), eq(paymentEvents.toStatus, payment.status)))
    .orderBy(desc(paymentEvents.createdAt))
    .limit(1);
  return last?.reason;
}

/**
 * For payments opened with `defer_execution` (auction bids): run the contract call and capture a
 * held payment now. Sent inside the caller's transaction, so it commits with the caller's change.
 */
export async function executePayment(deps: Deps, tx: Tx, paymentId: string) {
  // Marked as it is locked, with the job: from now on a payment without a contract call is being
  // captured, and the app can no longer cancel it (`captureAsked`).
  const [held] = await tx
    .update(payments)
    .set({ executeAskedAt: deps.now() })
    .where(and(eq(payments.id, paymentId), eq(payments.status, "hold")))
    .returning({ id: payments.id });
  if (!held) throw new AppError("invalid_state_transition", "Only a held payment can be executed");
  await deps.jobs.send(tx, EXECUTE_JOB, { paymentId });
}

/** Releases a held (or still pending) payment inside the caller's transaction: an outbid bid. */
export async function releasePayment(deps: Deps, tx: Tx, paymentId: string, reason: string) {
  const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for("update");
  if (!payment || (payment.status !== "hold" && payment.status !== "pending")) return payment;
  // A bid whose contract call is signed is the sale's delivery on its way: never released from
  // here, the chain's outcome decides (docs/auctions.md, "Runners-up").
  if (payment.signedAt) return payment;
  if (payment.capturedAmount > 0n) {
    const refunded = await transition(deps, tx, payment, "failed-captured", { actor: "system", reason });
    await deps.jobs.send(tx, REFUND_JOB, { paymentId });
    return transition(deps, tx, refunded, "refunded", { actor: "system", reason });
  }
  const held = payment.status === "hold" || payment.intentId !== null;
  const moved = await transition(deps, tx, payment, "cancelled", { actor: "system", reason });
  if (held) await deps.jobs.send(tx, RELEASE_HOLD_JOB, { paymentId });
  return moved;
}
