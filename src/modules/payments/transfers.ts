import { and, eq, sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Tx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/http/errors.ts";
import { type PaymentProvider, TransferRefusedError } from "../../platform/providers/payments/types.ts";
import type { LedgerEvent } from "../ledger/entries.ts";
import { postPaymentEvents } from "./books.ts";
import { type PaymentJob, SETTLE_JOB } from "./job-names.ts";
import type { PaymentRow } from "./lifecycle.ts";
import { payments } from "./tables.ts";

export interface PlannedTransfer {
  /** Stable name of the share, part of the transfer's idempotency key. */
  key: string;
  destination: string;
  amount: bigint;
}

/** Why the transfers of a payment did not go through, as `transaction_response.error` says it. */
export interface TransferFailure {
  code: string;
  message: string;
  /** The provider answered that it made nothing: the next try is a new request (a new key). */
  refused: boolean;
  /** Waiting alone will not fix it: automatic tries stop until something changes. */
  permanent: boolean;
}

export const REPOINT_OR_REFUND =
  "point this payment's payout at a payable seller (POST /payments/{app_id}/{payment_id}/seller) and retry it, or refund it";

/**
 * The shares a payment pays out once captured: the seller's share to the seller's connected
 * account when the price names a seller KYC record. The app's and the platform's shares stay on
 * the platform account, which is where the charge lands. A seller with no account (a record
 * deleted, or never onboarded) blocks the payment rather than leaving their share with the
 * platform: creating the payment refuses such a seller, so this is the rare case of a change since.
 */
export async function plannedTransfers(
  deps: Deps,
  payment: PaymentRow,
): Promise<{ transfers: PlannedTransfer[]; blocked?: TransferFailure }> {
  if (!payment.kycId || payment.sellerAmount <= 0n) return { transfers: [] };
  const destination = await deps.sellerAccounts(payment.kycId);
  if (!destination) {
    // Only fixes that work: a deleted record can never be paid, so re-pointing is the way there.
    const message =
      destination === undefined
        ? `The seller's KYC record ${payment.kycId} no longer exists: ${REPOINT_OR_REFUND}`
        : `The seller has no payout account yet: the transfer goes again by itself once they finish onboarding in the KYC widget (or retry then); or ${REPOINT_OR_REFUND}`;
    return {
      transfers: [],
      blocked: { code: "seller_not_payable", message, refused: false, permanent: true },
    };
  }
  return { transfers: [{ key: "seller", destination, amount: payment.sellerAmount }] };
}

/** The transfer's idempotency key: the same for every try of a round, so a try never pays twice. */
export function transferKey(payment: PaymentRow, key: string): string {
  const base = `${payment.id}:transfer:${key}`;
  return payment.transferRound === 0 ? base : `${base}:${payment.transferRound}`;
}

// Codes whose answer means the provider made nothing and never will for this request.
const REFUSALS: readonly string[] = ["validation_failed", "not_found", "invalid_state_transition"];

/**
 * Permanent or transient. Permanent: the provider refused (no such destination, the account
 * cannot receive transfers, nothing left to transfer from the charge, a key reused). Transient: the
 * provider is unavailable (5xx, rate limit, outage) or the call failed in a way that does not say
 * whether it was made (a dropped connection, a timeout): tried again with the same key, so a
 * transfer that was made is answered, not repeated.
 */
export function failureOf(error: unknown): TransferFailure {
  if (error instanceof TransferRefusedError) {
    return { code: error.reason, message: error.message, refused: true, permanent: true };
  }
  if (error instanceof AppError && error.code !== "provider_unavailable") {
    return {
      code: error.code,
      message: error.message,
      refused: REFUSALS.includes(error.code),
      permanent: true,
    };
  }
  const message =
    error instanceof AppError ? error.message : "The payment provider could not be reached or failed";
  return { code: "provider_unavailable", message, refused: false, permanent: false };
}

/**
 * Automatic tries after a transient failure: 30 s after the first, then twice as long each time,
 * at most an hour apart, 10 tries in all (about three hours: 30 s, 1, 2, 4, 8, 16 and 32 min, then
 * 1 h twice). A failure on the last try is taken as permanent: the payment keeps its reason and
 * waits for the app's `retry`.
 */
export const SETTLE_RETRY = Object.freeze({ tries: 10, firstDelaySeconds: 30, maxDelaySeconds: 3600 });

/** Seconds before the try after failed try number `attempt` (0 for the first try). */
export const retryDelaySeconds = (attempt: number) =>
  Math.min(SETTLE_RETRY.firstDelaySeconds * 2 ** attempt, SETTLE_RETRY.maxDelaySeconds);

/**
 * A seller's payouts are back (or were enabled at last): the transfers of their payments that
 * failed meanwhile are tried again at once, in the transaction that records the change.
 */
export async function resumeSellerTransfers(deps: Pick<Deps, "jobs">, tx: Tx, kycId: string) {
  const waiting = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.kycId, kycId), eq(payments.status, "failed-transfers")));
  for (const { id } of waiting) await deps.jobs.send<PaymentJob>(tx, SETTLE_JOB, { paymentId: id });
}

/**
 * Adds `{key: id}` to the payment's transfers in place, so concurrent writers never drop each
 * other's, and posts the movement (`event`) to the books in the same transaction.
 */
export async function recordTransfer(
  deps: Pick<Deps, "db" | "now">,
  payment: PaymentRow,
  key: string,
  id: string,
  event: LedgerEvent,
) {
  await deps.db.transaction(async (tx) => {
    await tx
      .update(payments)
      .set({ transfers: sql`${payments.transfers} || ${JSON.stringify({ [key]: id })}::jsonb` })
      .where(eq(payments.id, payment.id));
    await postPaymentEvents(tx, payment, [event], deps.now());
  });
}

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
