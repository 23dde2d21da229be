// Step 7, refund: the shopper gets back all or part of a captured payment.
//
// What it does: `refundLocked` (the app's `refund`, or a former owner's of a deleted app) records
// the refunded total and its ledger entries, moves the payment to `refunded` once nothing is left
// (from `paid`, `failed-captured` or `failed-transfers`; a partial refund leaves it `paid`) and
// sends `payments.refund`, which refunds the shopper at the provider and then takes the seller's
// part back (reverse-transfers).
// A bank debit its bank took back before the provider made the refund is refunded by that return:
// booked so (`bank_return` of refund n), and the seller's part is still taken back.
// Compensation: none. A refund is final; it is itself how a capture is undone.
// After a crash: the refunded total, the move, the books and the job commit in one transaction, so
// a refund asked for is always made. The provider's refund is keyed `<payment>:refund` (then
// `:refund:<n>` for the n-th), so a retried job is answered the same refund, never a second one;
// its ledger entry is keyed by the refund. The shopper is refunded before the seller's reversal,
// so a crash between them leaves the seller's part to the retried job, not the shopper's money.
import { eq } from "drizzle-orm";
import type { Deps } from "../../../deps.ts";
import type { Tx } from "../../../platform/db/index.ts";
import { AppError, invalid } from "../../../platform/http/errors.ts";
import type { JobDefinition } from "../../../platform/jobs/index.ts";
import { formatAmountText, parseAmount } from "../../../platform/money/amount.ts";
import { currencyOf } from "../../../platform/money/currencies.ts";
import { type LedgerEvent, refundParts } from "../../ledger/entries.ts";
import { refundsPosted } from "../../ledger/reads.ts";
import { figuresOf, postPaymentEvents } from "../books.ts";
import { type PaymentJob, REFUND_JOB } from "../job-names.ts";
import { canMove, type PaymentRow, transition } from "../lifecycle.ts";
import { returnOf } from "../returns.ts";
import { read } from "../rows.ts";
import { payments } from "../tables.ts";
import { REFUND_RETRY_LIMIT, takeBackTransfers } from "./reverse-transfers.ts";

/** Refund number `n` of a payment, taking its refunded total from `before` to `after` (minor units). */
export interface RefundJob extends PaymentJob {
  refund?: number;
  before?: string;
  after?: string;
}

export interface RefundInput {
  reason?: string;
  /** In the charge currency, major units; absent: all that is not refunded yet. */
  amount?: number | string;
}

/**
 * The refund itself, on a payment locked by the caller's transaction: the refunded total, the
 * books and the provider's refund job, together. `refund` and a former owner's refund of a deleted
 * app's payment (deleted-app.ts) both come here, so every refund is booked alike.
 */
export async function refundLocked(
  deps: Deps,
  tx: Tx,
  payment: PaymentRow,
  input: RefundInput,
  actor: string,
) {
  if (!canMove(payment.status, "refunded")) {
    throw new AppError("invalid_state_transition", `A ${payment.status} payment cannot become refunded`);
  }
  const currency = currencyOf(payment.chargeCurrency, "/body/amount");
  const remaining = payment.chargeAmount - payment.refundedAmount;
  const amount = input.amount === undefined ? remaining : parseAmount(input.amount, currency, "/body/amount");
  if (amount <= 0n) throw invalid("/body/amount", "must be more than zero");
  if (amount > remaining) {
    const left = formatAmountText(remaining, currency);
    throw new AppError(
      "conflict",
      `/body/amount: only ${left} ${currency.code} of this payment remains to be refunded`,
      { extensions: { amount_remaining: left } },
    );
  }
  const after = payment.refundedAmount + amount;
  if (after < payment.chargeAmount && payment.status !== "paid") {
    throw new AppError(
      "invalid_state_transition",
      `A ${payment.status} payment can only be refunded in full (omit amount)`,
    );
  }
  const n = (await refundsPosted(tx, payment.id)) + 1;
  const now = deps.now();
  const moved =
    after === payment.chargeAmount
      ? await transition(deps, tx, payment, "refunded", {
          actor,
          reason: input.reason ?? "refunded by the app",
          set: { refundedAmount: after },
        })
      : (
          await tx
            .update(payments)
            .set({ refundedAmount: after, updatedAt: now })
            .where(eq(payments.id, payment.id))
            .returning()
        )[0];
  await postPaymentEvents(tx, payment, [{ type: "refund", n, before: payment.refundedAmount, after }], now);
  await deps.jobs.send<RefundJob>(tx, REFUND_JOB, {
    paymentId: payment.id,
    refund: n,
    before: payment.refundedAmount.toString(),
    after: after.toString(),
  });
  return moved;
}

/** The refund a job makes; a job queued before partial refunds existed is the whole of refund 1. */
function refundOf(job: RefundJob, payment: PaymentRow) {
  const n = job.refund ?? 1;
  const before = BigInt(job.before ?? "0");
  const after = BigInt(job.after ?? payment.chargeAmount.toString());
  const suffix = n === 1 ? "" : `:${n}`;
  return { n, before, after, suffix };
}

/**
 * The shopper's refund comes first, then the seller's part of it is taken back from their
 * transfer (docs/payments.md). The provider's refund is posted to the books with its id.
 */
export function refundJob(deps: Deps): JobDefinition<RefundJob> {
  return {
    name: REFUND_JOB,
    retryLimit: REFUND_RETRY_LIMIT,
    async handle(job, meta) {
      const payment = await read(deps, job.paymentId);
      if (!payment?.intentId) return;
      const { n, before, after, suffix } = refundOf(job, payment);
      const provider = deps.paymentProviders.byId(payment.providerId as "sandbox" | "stripe");
      const amount = after - before;
      let settled: LedgerEvent;
      try {
        const refund = await provider.refund(
          { intentId: payment.intentId, ...(job.refund === undefined ? {} : { amount }) },
          { idempotencyKey: `${payment.id}:refund${suffix}` },
        );
        settled = { type: "refund_settled", n, amount: refund.amount, reference: refund.id };
      } catch (error) {
        // A bank debit its bank took back before the refund was made: the shopper has the money
        // from the return, and the provider will never refund it (docs/payments.md, "Bank debits
        // returned after collection"). Any other refusal is retried, as ever.
        const intent =
          payment.method === "us_bank_account"
            ? await provider.getIntent(payment.intentId).catch(() => undefined)
            : undefined;
        if (!intent || !returnOf(intent)) throw error;
        settled = { type: "bank_return", refund: n, amount };
      }
      await deps.db.transaction((tx) => postPaymentEvents(tx, payment, [settled], deps.now()));
      const seller = refundParts(figuresOf(payment), before, after).seller;
      // Read again: a settle job that transferred meanwhile has recorded its transfer (or will
      // send this job again, see settle.ts).
      await takeBackTransfers(deps, payment.id, meta.retryCount >= REFUND_RETRY_LIMIT, "a refund", {
        suffix,
        amount: () => seller,
      });
    },
  };
}
