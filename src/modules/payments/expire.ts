import { and, asc, eq, inArray, lt } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { JobDefinition } from "../../platform/jobs/index.ts";
import { RELEASE_HOLD_JOB } from "./job-names.ts";
import { transition } from "./lifecycle.ts";
import { payments } from "./tables.ts";

/**
 * Abandoned carts end: a payment left `pending` with nothing being paid for longer than
 * PENDING_PAYMENT_TTL_HOURS is cancelled with the reason `expired` (a payment event and the
 * `payment.cancelled` webhook, as every move), and its provider intent, if a try made one,
 * released, so it never blocks the app's (or its seller's) deletion. A periodic sweep over a
 * partial index of pending payments rather than a delayed job per payment: creating a payment
 * writes nothing more.
 */
export const EXPIRE_PENDING_JOB = "payments.expire-pending";
export const EXPIRED_REASON = "expired";

// Payments expired per transaction: small enough to keep each lock short, looped until done.
const BATCH = 200;

/**
 * Waiting for nothing but the shopper: never confirmed (`none`), or a 3-D Secure step abandoned
 * (`action_required`). A confirm being authorised (`requested`) is left to its job. Auction bids
 * (`defer_execution`) live and end with their auction.
 */
const IDLE_AUTH_STATES = ["none", "action_required"];

export function expirePendingJob(deps: Deps): JobDefinition<object> {
  return {
    name: EXPIRE_PENDING_JOB,
    // Every minute: an expired cart lingers at most a minute past its TTL.
    schedule: "* * * * *",
    async handle() {
      const ttlMs = deps.config.pendingPaymentTtlHours * 3_600_000;
      const cutoff = new Date(deps.now().getTime() - ttlMs);
      for (;;) {
        const expired = await deps.db.transaction(async (tx) => {
          const due = await tx
            .select()
            .from(payments)
            .where(
              and(
                eq(payments.status, "pending"),
                lt(payments.createdAt, cutoff),
                inArray(payments.authState, IDLE_AUTH_STATES),
                eq(payments.deferExecution, false),
              ),
            )
            .orderBy(asc(payments.createdAt))
            .limit(BATCH)
            .for("update", { skipLocked: true });
          for (const payment of due) {
            const error = {
              code: EXPIRED_REASON,
              decline_code: null,
              message: `Not paid within ${deps.config.pendingPaymentTtlHours} hours of being opened: nothing was charged`,
            };
            await transition(deps, tx, payment, "cancelled", {
              actor: "system",
              reason: EXPIRED_REASON,
              set: { transactionResponse: { ...payment.transactionResponse, error } },
            });
            if (payment.intentId) await deps.jobs.send(tx, RELEASE_HOLD_JOB, { paymentId: payment.id });
          }
          return due.length;
        });
        if (expired < BATCH) return;
      }
    },
  };
}
