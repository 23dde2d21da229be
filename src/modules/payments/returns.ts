import { and, eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Tx } from "../../platform/db/index.ts";
import type { ProviderIntent, ProviderReversal } from "../../platform/providers/payments/types.ts";
import { type PaymentJob, REVERSE_TRANSFERS_JOB, SYNC_JOB } from "./job-names.ts";
import { type PaymentRow, transition } from "./lifecycle.ts";
import type { PaymentStatus } from "./tables.ts";
import { payments } from "./tables.ts";

/**
 * A bank debit can be taken back after it was collected: the shopper's bank returns it (ACH
 * return: account closed, no authorisation, …) or the shopper disputes it (an ACH dispute is final).
 * The money is then gone back to the shopper, so there is nothing to capture, transfer or refund:
 * the payment moves to `failed`, with the bank's reason in `transaction_response.error` and the
 * `payment.failed` webhook (docs/payments.md, "Bank debits returned after collection").
 */

/** Where a collected bank debit can be when a return arrives; anything else ignores it. */
const RETURNABLE: readonly PaymentStatus[] = ["hold", "paid", "failed-captured", "failed-transfers"];

/** Whether the payment is a bank debit whose money was collected and could still be returned. */
export function isCollectedDebit(payment: PaymentRow): boolean {
  return (
    payment.method === "us_bank_account" && payment.capturedAmount > 0n && RETURNABLE.includes(payment.status)
  );
}

/**
 * Whether the payment is a bank debit its bank took back after it was collected (`failed`, with
 * the return as its error). Its contract call, if one was out, is still followed to its end and
 * recorded (await-confirmations), though nothing is settled from it.
 */
export function returnedAfterCollection(payment: PaymentRow): boolean {
  const error = (payment.transactionResponse as { error?: { returned_after_collection?: boolean } | null })
    .error;
  return payment.status === "failed" && error?.returned_after_collection === true;
}

/**
 * What the provider's intent says of a collected debit: its return, or nothing while it stands.
 * A collected debit's intent is `succeeded`; one that went back to wanting a payment method (or was
 * cancelled) was returned, with the bank's reason as its last error.
 */
export function returnOf(intent: ProviderIntent): ProviderReversal | null {
  if (intent.status === "succeeded" || intent.status === "processing") return null;
  return {
    intentId: intent.id,
    code: intent.lastError?.code ?? "debit_returned",
    message: intent.lastError?.message ?? "The bank returned the debit after it was collected.",
  };
}

/**
 * Applies a return to a collected bank debit inside the caller's transaction (the payment is
 * locked first). A return for a payment that was not collected, or is already settled otherwise
 * (refunded, failed), changes nothing: returns and webhooks may arrive late or twice.
 */
export async function applyReturn(
  deps: Deps,
  tx: Tx,
  paymentId: string,
  reversal: ProviderReversal,
  actor: string,
): Promise<PaymentRow | undefined> {
  const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for("update");
  if (!payment || !isCollectedDebit(payment)) return undefined;
  const failed = await transition(deps, tx, payment, "failed", {
    actor,
    reason: `bank debit returned after collection: ${reversal.message}`,
    set: {
      transactionResponse: {
        ...payment.transactionResponse,
        error: {
          code: reversal.code,
          decline_code: null,
          message: reversal.message,
          returned_after_collection: true,
        },
      },
    },
  });
  // A seller already paid from the returned money gives it back (reversal refused: said on the
  // payment). A transfer still in flight may have paid them too: the job learns it first.
  if (Object.keys(payment.transfers).length > 0 || payment.transferPending) {
    await deps.jobs.send<PaymentJob>(tx, REVERSE_TRANSFERS_JOB, { paymentId });
  }
  // A bid whose debit came back loses its backing like a failed hold does.
  if (payment.deferExecution) await deps.onDeferredPayment(tx, failed);
  return failed;
}

/** The payment a provider's intent belongs to, with that provider; undefined when none. */
export async function paymentOfIntent(tx: Tx, providerId: string, intentId: string) {
  const [row] = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.intentId, intentId), eq(payments.providerId, providerId)));
  return row;
}

/**
 * After a bank debit is collected the sync job looks at its intent again, at doubling intervals
 * (2 s, 4 s, 8 s, … about 36 hours in all): the backstop for a provider webhook announcing a
 * return, and how the sandbox's returns are noticed (it sends no webhooks by itself).
 */
const RETURN_WATCH_LOOKS = 16;

export function watchForReturn(deps: Deps, tx: Tx, paymentId: string, look = 1) {
  if (look > RETURN_WATCH_LOOKS) return null;
  return deps.jobs.send<PaymentJob>(tx, SYNC_JOB, { paymentId, watch: look }, { startAfter: 2 ** look });
}
