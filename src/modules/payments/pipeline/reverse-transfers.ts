// Step 9, reverse-transfers: a seller gives back what they were paid from money that went back to
// the shopper.
//
// What it does: `reverseTransfers` takes the seller's transfer back at the provider and records
// each reversal with its ledger entry. The refund job runs it after refunding the shopper (the
// seller's part of that refund), and `payments.reverse-transfers` runs it for a bank debit returned
// after collection (all that is left), sent by the move to `failed` (returns.ts). It moves no
// status: the refund or the return already did. A reversal the provider refuses (the seller's
// balance cannot cover it) is said on the payment and in the log (`takeBackTransfers`): the
// shopper's refund stands, and the seller's payable account in the books shows what they owe. A
// transfer still in flight (asked for, never answered) is asked again under its key first, so one
// that reached the seller is recorded and taken back (`learnInFlight`).
// Compensation: none; it is the compensation of transfer-to-seller.
// After a crash: one reversal each. The reversal is keyed `<payment>:reverse:<share><suffix>` and
// recorded under `<share>:reversal<suffix>`, skipped once recorded, so a job retried after dying
// between the provider's answer and the record is answered the same reversal. The return's job
// commits with its move; a transient failure throws and pg-boss retries, and the last try records
// what it could not take back.
import { eq, sql } from "drizzle-orm";
import type { Deps } from "../../../deps.ts";
import type { JobDefinition } from "../../../platform/jobs/index.ts";
import type { PaymentProvider } from "../../../platform/providers/payments/types.ts";
import { type PaymentJob, REVERSE_TRANSFERS_JOB } from "../job-names.ts";
import type { PaymentRow } from "../lifecycle.ts";
import { read } from "../rows.ts";
import { payments } from "../tables.ts";
import {
  failureOf,
  plannedTransfers,
  recordSent,
  recordTransfer,
  sendTransfer,
  type TransferFailure,
} from "./transfer-to-seller.ts";

/** pg-boss's retries of a refund (provider down): the last one records a reversal it could not make. */
export const REFUND_RETRY_LIMIT = 8;

/**
 * Which reversal of a payment's transfers this is. A refund takes back the seller's part of what
 * it refunds (refund `n`: `<share>:reversal` for the first, `<share>:reversal:<n>` after), a bank
 * return all that is left (`<share>:reversal`, or `<share>:reversal:return` after partial refunds).
 */
export interface ReversalPlan {
  suffix: string;
  /** What to take back of the share; undefined: all that is left. Zero takes nothing back. */
  amount?: (share: string) => bigint | undefined;
}

/**
 * The refund of a marketplace payment takes the seller's transfer back (what Stripe's
 * `reverse_transfer: true` does for destination charges), in proportion to what is refunded. Each
 * reversal is keyed by the payment, the share and the plan's suffix, and recorded under
 * `<share>:reversal<suffix>`. A transient failure throws (the job is retried); a permanent one
 * (the seller's balance cannot cover it, say), or a transient one on the job's last try, is
 * answered so the caller records it: the shopper's refund stands either way.
 */
export async function reverseTransfers(
  deps: Pick<Deps, "db" | "now">,
  provider: PaymentProvider,
  payment: PaymentRow,
  lastTry: boolean,
  plan: ReversalPlan = { suffix: "" },
): Promise<TransferFailure | undefined> {
  for (const [key, transferId] of Object.entries(payment.transfers)) {
    const recordAs = `${key}:reversal${plan.suffix}`;
    if (key.includes(":reversal") || payment.transfers[recordAs]) continue;
    const amount = plan.amount?.(key);
    if (amount === 0n) continue;
    // A bank return after partial refunds took back all that was left of the share: a refund's
    // part of it that comes later (its provider refund overtaken by the return) has none to take.
    if (amount !== undefined && payment.transfers[`${key}:reversal:return`]) continue;
    try {
      const reversal = await provider.reverseTransfer(
        transferId,
        { ...(amount === undefined ? {} : { amount }), metadata: { payment_id: payment.id, share: key } },
        { idempotencyKey: `${payment.id}:reverse:${key}${plan.suffix}` },
      );
      await recordTransfer(deps, payment, recordAs, reversal.id, {
        type: "transfer_reversal",
        key: recordAs,
        amount: reversal.amount,
        reference: reversal.id,
      });
    } catch (error) {
      const failure = failureOf(error);
      if (!failure.permanent && !lastTry) throw error;
      return failure;
    }
  }
  return undefined;
}

/**
 * A transfer of the share asked for and never answered (`transferPending`: its try failed without
 * an answer, then the money went back) may have reached the seller. Asked again under its key, the
 * provider answers the transfer it made, recorded here so that the reversal takes it back, or
 * refuses (it made none, and the charge has nothing left to send): then nothing is in flight. A
 * failure that says neither is retried, and on the last try answered like a reversal's.
 */
async function learnInFlight(
  deps: Deps,
  provider: PaymentProvider,
  payment: PaymentRow,
  lastTry: boolean,
): Promise<TransferFailure | undefined> {
  const { transfers, blocked } = await plannedTransfers(deps, payment);
  if (blocked) {
    // No payout account left to ask about (the seller's record is gone): said, not left silent.
    const message = `a transfer of the share to seller ${payment.kycId} went unanswered and cannot be asked about again (their payout account is gone); it may have been made`;
    return { ...blocked, message };
  }
  for (const transfer of transfers) {
    if (payment.transfers[transfer.key]) continue;
    let id: string;
    try {
      id = (await sendTransfer(provider, payment, transfer)).id;
    } catch (error) {
      const failure = failureOf(error);
      if (!failure.refused) {
        if (!lastTry) throw error;
        return failure;
      }
      await deps.db.update(payments).set({ transferPending: null }).where(eq(payments.id, payment.id));
      continue;
    }
    await recordSent(deps, payment, transfer, id);
  }
  return undefined;
}

/**
 * The seller's transfers of a payment whose money went back to the shopper are reversed. When a
 * reversal is refused, the seller kept their share, which the platform now owes itself: said on
 * the payment and in the log, for the operator to settle with the seller (the seller's payable
 * account in the books shows what they owe back).
 */
export async function takeBackTransfers(
  deps: Deps,
  paymentId: string,
  lastTry: boolean,
  after: string,
  plan?: ReversalPlan,
) {
  let payment = await read(deps, paymentId);
  if (!payment) return;
  const provider = deps.paymentProviders.byId(payment.providerId as "sandbox" | "stripe");
  let failure: TransferFailure | undefined;
  if (payment.transferPending) {
    failure = await learnInFlight(deps, provider, payment, lastTry);
    payment = (await read(deps, paymentId)) ?? payment;
  }
  failure ??= await reverseTransfers(
    deps,
    provider,
    payment,
    lastTry,
    plan ?? { suffix: payment.refundedAmount === 0n ? "" : ":return" },
  );
  if (!failure) return;
  const error = {
    ...((payment.transactionResponse as { error?: object | null }).error ?? {}),
    code: failure.code,
    decline_code: null,
    message: `The seller's transfer was not reversed after ${after}: ${failure.message}`,
    retry_at: null,
  };
  await deps.db
    .update(payments)
    .set({
      transactionResponse: sql`${payments.transactionResponse} || ${JSON.stringify({ error })}::jsonb`,
      updatedAt: deps.now(),
    })
    .where(eq(payments.id, payment.id));
  deps.logger.warn(
    { payment_id: payment.id, app_id: payment.appId, kyc_id: payment.kycId, code: failure.code },
    `seller transfer not reversed after ${after}`,
  );
}

/** A bank debit returned after its seller was paid: the seller's transfer is taken back. */
export function reverseTransfersJob(deps: Deps): JobDefinition<PaymentJob> {
  return {
    name: REVERSE_TRANSFERS_JOB,
    retryLimit: REFUND_RETRY_LIMIT,
    async handle({ paymentId }, meta) {
      await takeBackTransfers(deps, paymentId, meta.retryCount >= REFUND_RETRY_LIMIT, "a bank return");
    },
  };
}
