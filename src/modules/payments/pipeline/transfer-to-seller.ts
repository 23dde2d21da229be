// Step 6, transfer-to-seller: the seller's share goes to their connected account, and the payment
// is `paid`.
//
// What it does: the settle job (`payments.settle`, after capture) transfers the seller's share
// when the price names a seller (`plannedTransfers`), records each transfer with its ledger entry,
// and moves the payment to `paid` (from `hold`, or `failed-captured`/`failed-transfers` on a
// retry). A failed transfer leaves it `failed-transfers` (through `paid`: the charge is captured)
// with the reason, and a transient failure schedules the next try (`SETTLE_RETRY`).
// Compensation: reverse-transfers. A refund takes the seller's part back in proportion, a bank
// debit returned after collection takes it all back.
// After a crash: one transfer a share. The transfer is keyed `<payment>:transfer:<share>` (a
// round number after a refusal, which made nothing), so a job retried after dying between the
// provider's answer and the record is answered the same transfer; a recorded share is never sent
// again. The share is marked in flight before it is asked for and unmarked once recorded or
// refused: meanwhile the payout cannot be re-pointed, and a refund learns the outcome first
// (reverse-transfers). The move to `paid` is one statement (or, when something changed since the
// job read the payment, one transaction on the locked payment), as is the move to
// `failed-transfers` with its next try's job; a try overtaken by the app's retry does nothing.
// Tested by test/payments/crash.test.ts ("transfer-sent") and transfer-in-flight.test.ts.
import { and, eq, sql } from "drizzle-orm";
import type { Deps } from "../../../deps.ts";
import type { Tx } from "../../../platform/db/index.ts";
import { AppError } from "../../../platform/http/errors.ts";
import type { JobDefinition } from "../../../platform/jobs/index.ts";
import { type PaymentProvider, TransferRefusedError } from "../../../platform/providers/payments/types.ts";
import type { LedgerEvent } from "../../ledger/entries.ts";
import { postPaymentEvents } from "../books.ts";
import { type PaymentJob, REFUND_JOB, SETTLE_JOB } from "../job-names.ts";
import { moveUnlocked, type PaymentRow, transition } from "../lifecycle.ts";
import { locked, read, sameSeller } from "../rows.ts";
import { payments } from "../tables.ts";
import { captureAtProvider, recordCaptured } from "./capture.ts";

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

/**
 * A payment whose authorize job goes on to settle it once held, instead of asking for a settle job:
 * no contract call between (`triggerId`), no owner deciding when (`deferExecution`, an auction's
 * bid), no seller's share to transfer (whose failures and tries are the settle job's). The
 * authorize job then carries the settle step, and pg-boss's retries of that job are its retries.
 */
export function settlesWithAuthorization(payment: PaymentRow): boolean {
  return !payment.triggerId && !payment.deferExecution && (!payment.kycId || payment.sellerAmount <= 0n);
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
 * other's, and posts the movement (`event`) to the books in the same transaction. A transfer
 * recorded is no longer in flight.
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
      .set({
        transfers: sql`${payments.transfers} || ${JSON.stringify({ [key]: id })}::jsonb`,
        ...(event.type === "transfer" ? { transferPending: null } : {}),
      })
      .where(eq(payments.id, payment.id));
    await postPaymentEvents(tx, payment, [event], deps.now());
  });
}

const SYSTEM = "system";
const PAID_REASON = "captured and transferred";
const SETTLING: readonly string[] = ["hold", "failed-transfers", "failed-captured"];

/** The announced time of the next automatic try, if the payment's last failure scheduled one. */
const retryAtOf = (payment: PaymentRow) =>
  (payment.transactionResponse.error as { retry_at?: string | null } | null | undefined)?.retry_at ?? null;

/**
 * Records a failed try at the transfers: the payment is `failed-transfers` (through `paid`: the
 * charge is captured) with the reason in `transaction_response.error`, the move is a payment event
 * and a `payment.failed-transfers` webhook, and a warning is logged. A transient failure schedules
 * the next try (SETTLE_RETRY); a permanent one, or the last try, schedules nothing: the app's
 * `retry`, or the seller's payouts coming back (`resumeSellerTransfers`), starts again.
 */
async function recordFailure(
  deps: Deps,
  tx: Tx,
  payment: PaymentRow,
  failure: TransferFailure,
  attempt: number,
) {
  const lastTry = attempt + 1 >= SETTLE_RETRY.tries;
  const delay = failure.permanent || lastTry ? null : retryDelaySeconds(attempt);
  const retryAt = delay === null ? null : new Date(deps.now().getTime() + delay * 1000).toISOString();
  // The provider's words, then what fixes it: only fixes that work (blocked plans say their own).
  const message =
    !failure.permanent && lastTry
      ? `${failure.message} (gave up after ${SETTLE_RETRY.tries} tries; retry the payment)`
      : failure.permanent && failure.code !== "seller_not_payable"
        ? `${failure.message} (retry once the seller can receive transfers again; or ${REPOINT_OR_REFUND})`
        : failure.message;
  const error = { code: failure.code, decline_code: null, message, retry_at: retryAt };
  const set = {
    transactionResponse: { ...payment.transactionResponse, error },
    // A refusal left nothing under the key: the next try asks afresh, and nothing is in flight.
    // Any other failure may have made the transfer: it stays in flight until a try is answered.
    transferRound: failure.refused ? payment.transferRound + 1 : payment.transferRound,
    ...(failure.refused ? { transferPending: null } : {}),
  };
  if (payment.status === "failed-transfers") {
    await tx
      .update(payments)
      .set({ ...set, updatedAt: deps.now() })
      .where(eq(payments.id, payment.id));
  } else {
    // The charge is captured (paid); only the seller's share is missing (failed-transfers).
    const paid = await transition(deps, tx, payment, "paid", { actor: SYSTEM, reason: "captured" });
    await transition(deps, tx, paid, "failed-transfers", {
      actor: SYSTEM,
      reason: `transfer failed: ${failure.code}: ${message}`,
      set,
    });
  }
  if (delay !== null) {
    await deps.jobs.send<PaymentJob>(
      tx,
      SETTLE_JOB,
      { paymentId: payment.id, attempt: attempt + 1, retryAt: retryAt! },
      { startAfter: delay },
    );
  }
  deps.logger.warn(
    {
      payment_id: payment.id,
      app_id: payment.appId,
      kyc_id: payment.kycId,
      code: failure.code,
      permanent: delay === null,
      attempt: attempt + 1,
      retry_at: retryAt,
    },
    "seller transfer failed",
  );
}

/**
 * Paid in one statement while the payment is still held as read (by the settle job, before its
 * provider calls) and its transaction response (which the move keeps) unchanged, with the capture
 * `captured` recorded by it when there was one (its amount and ledger entries) and the
 * `payment.paid` deliveries of the endpoints listening. False, having written nothing, otherwise
 * (more endpoints listening than `moveUnlocked` made ids for, too): anything else, a refund
 * meanwhile included, is decided on the locked row.
 */
async function paidAlone(deps: Deps, payment: PaymentRow, captured: bigint | undefined) {
  const response = payment.transactionResponse;
  const paid = await moveUnlocked(
    deps,
    payment,
    "paid",
    {
      actor: SYSTEM,
      reason: PAID_REASON,
      set: {
        transactionResponse: { ...response, error: null },
        ...(captured === undefined ? {} : { capturedAmount: captured }),
      },
      post: captured === undefined ? [] : [{ type: "capture" }],
    },
    () => [],
    sql`${payments.transactionResponse} = ${JSON.stringify(response)}::jsonb`,
  );
  return paid !== undefined;
}

/**
 * Marks the share's transfer in flight before it is asked for, on the payment as read (seller and
 * round unchanged; false, writing nothing, after a re-point). A re-point is refused while it is set.
 */
async function markInFlight(deps: Pick<Deps, "db">, payment: PaymentRow, key: string) {
  const round = eq(payments.transferRound, payment.transferRound);
  const marked = await deps.db
    .update(payments)
    .set({ transferPending: transferKey(payment, key) })
    .where(and(eq(payments.id, payment.id), sameSeller(payment), round))
    .returning({ id: payments.id });
  return marked.length > 0;
}

/** Asks the provider for one planned transfer, under its round's key: a retry is answered the same. */
export function sendTransfer(provider: PaymentProvider, payment: PaymentRow, transfer: PlannedTransfer) {
  return provider.transfer(
    {
      amount: transfer.amount,
      currency: payment.chargeCurrency,
      destination: transfer.destination,
      sourceIntentId: payment.intentId ?? undefined,
      transferGroup: payment.id,
      metadata: { payment_id: payment.id, app_id: payment.appId, share: transfer.key },
    },
    { idempotencyKey: transferKey(payment, transfer.key) },
  );
}

/** Records transfer `id` the provider answered for `transfer`, with its ledger entry: no longer in flight. */
export const recordSent = (
  deps: Pick<Deps, "db" | "now">,
  payment: PaymentRow,
  transfer: PlannedTransfer,
  id: string,
) =>
  recordTransfer(deps, payment, transfer.key, id, {
    type: "transfer",
    key: transfer.key,
    amount: transfer.amount,
    reference: id,
  });

/**
 * Captures a held card (bank debits are already collected), transfers the shares, and pays. A
 * capture the provider cannot take now throws, and pg-boss retries the job with its backoff; the
 * transfers keep their own count of tries (`recordFailure`), so the payment always says where
 * they stand.
 */
export function settleJob(deps: Deps): JobDefinition<PaymentJob> {
  return {
    name: SETTLE_JOB,
    async handle({ paymentId, attempt = 0, retryAt }) {
      const payment = await read(deps, paymentId);
      if (!payment || !SETTLING.includes(payment.status)) return;
      // A scheduled try that the app's `retry` or a newer failure overtook leaves it to them.
      if (retryAt !== undefined && retryAtOf(payment) !== retryAt) return;
      await settle(deps, payment, attempt);
    },
  };
}

/**
 * The settle step on `payment` as read (held, or failed after its capture): what the settle job
 * does, and what the authorize job does itself for a payment it held that has no contract call
 * and no seller to pay (`settlesWithAuthorization`).
 */
export async function settle(deps: Deps, payment: PaymentRow, attempt = 0) {
  const paymentId = payment.id;
  const provider = deps.paymentProviders.byId(payment.providerId as "sandbox" | "stripe");
  const captured = await captureAtProvider(deps, provider, payment);
  const plan = await plannedTransfers(deps, payment);
  if (!plan.blocked && plan.transfers.length === 0 && payment.status === "hold") {
    // Nothing to transfer: the capture is recorded by the move to `paid`, in its one statement.
    if (await paidAlone(deps, payment, captured)) return;
  }
  await recordCaptured(deps, payment, captured);
  let failure = plan.blocked;
  let made = false;
  for (const transfer of plan.transfers) {
    if (payment.transfers[transfer.key]) continue;
    if (!(await markInFlight(deps, payment, transfer.key))) {
      // The app re-pointed the payout since this job read the payment: settled as it is now.
      const current = await read(deps, paymentId);
      if (current && SETTLING.includes(current.status)) await settle(deps, current, attempt);
      return;
    }
    let id: string;
    try {
      id = (await sendTransfer(provider, payment, transfer)).id;
    } catch (error) {
      failure = failureOf(error);
      if (!failure.permanent)
        deps.logger.debug({ err: error, payment_id: payment.id }, "transfer call failed");
      break;
    }
    deps.faults.crashPoint("transfer-sent");
    await recordSent(deps, payment, transfer, id);
    made = true;
  }
  // Transfers made (or found made): paid in one statement as well, the capture recorded above.
  const transferred = !failure && plan.transfers.length > 0 && payment.status === "hold";
  if (transferred && (await paidAlone(deps, payment, undefined))) return;
  await deps.db.transaction(async (tx) => {
    const current = await locked(tx, paymentId);
    if (!current) return;
    if (!SETTLING.includes(current.status)) {
      // Refunded while this try transferred: the refund job reverses the transfers it finds
      // recorded, so it runs again for this one (its provider calls are keyed: no second refund).
      if (made && current.status === "refunded") await deps.jobs.send(tx, REFUND_JOB, { paymentId });
      return;
    }
    if (failure) {
      await recordFailure(deps, tx, current, failure, attempt);
      return;
    }
    await transition(deps, tx, current, "paid", {
      actor: SYSTEM,
      reason: PAID_REASON,
      set: { transactionResponse: { ...current.transactionResponse, error: null } },
    });
  });
}
