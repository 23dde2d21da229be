import { eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Tx } from "../../platform/db/index.ts";
import type { JobDefinition } from "../../platform/jobs/index.ts";
import { postPaymentEvents } from "./books.ts";
import { intentKey, type PaymentJob, REFUND_JOB, SETTLE_JOB } from "./job-names.ts";
import { type PaymentRow, transition } from "./lifecycle.ts";
import { locked, read } from "./rows.ts";
import { payments } from "./tables.ts";
import {
  failureOf,
  plannedTransfers,
  REPOINT_OR_REFUND,
  recordTransfer,
  retryDelaySeconds,
  SETTLE_RETRY,
  type TransferFailure,
  transferKey,
} from "./transfers.ts";

const SYSTEM = "system";
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
    // A refusal left nothing under the key: the next try asks afresh.
    transferRound: failure.refused ? payment.transferRound + 1 : payment.transferRound,
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
      const provider = deps.paymentProviders.byId(payment.providerId as "sandbox" | "stripe");
      if (payment.capturedAmount === 0n && payment.intentId) {
        const intent = await provider.captureIntent(payment.intentId, undefined, {
          idempotencyKey: intentKey(payment, "capture"),
        });
        deps.faults.crashPoint("capture-sent");
        // The capture and its entries commit together; a retried job captures again under the
        // same key and posts nothing twice (the capture's ledger transaction is keyed by the payment).
        await deps.db.transaction(async (tx) => {
          await tx
            .update(payments)
            .set({ capturedAmount: intent.amountReceived })
            .where(eq(payments.id, payment.id));
          await postPaymentEvents(tx, payment, [{ type: "capture" }], deps.now());
        });
      }
      const plan = await plannedTransfers(deps, payment);
      let failure = plan.blocked;
      let made = false;
      for (const transfer of plan.transfers) {
        if (payment.transfers[transfer.key]) continue;
        let id: string;
        try {
          const sent = await provider.transfer(
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
          id = sent.id;
        } catch (error) {
          failure = failureOf(error);
          if (!failure.permanent)
            deps.logger.debug({ err: error, payment_id: payment.id }, "transfer call failed");
          break;
        }
        deps.faults.crashPoint("transfer-sent");
        await recordTransfer(deps, payment, transfer.key, id, {
          type: "transfer",
          key: transfer.key,
          amount: transfer.amount,
          reference: id,
        });
        made = true;
      }
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
          reason: "captured and transferred",
          set: { transactionResponse: { ...current.transactionResponse, error: null } },
        });
      });
    },
  };
}
