import { eq, sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { recordAudit } from "../../platform/audit/log.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import type { Tx } from "../../platform/db/index.ts";
import { AppError, invalid } from "../../platform/http/errors.ts";
import type { JobDefinition } from "../../platform/jobs/index.ts";
import { formatAmountText, parseAmount } from "../../platform/money/amount.ts";
import { currencyOf } from "../../platform/money/currencies.ts";
import { requireAppRole } from "../apps/access.ts";
import { refundParts } from "../ledger/entries.ts";
import { refundsPosted } from "../ledger/reads.ts";
import { figuresOf, postPaymentEvents } from "./books.ts";
import { remember } from "./commands.ts";
import { actorName } from "./create.ts";
import { type PaymentJob, REFUND_JOB, REVERSE_TRANSFERS_JOB } from "./job-names.ts";
import { canMove, type PaymentRow, transition } from "./lifecycle.ts";
import { loadPayment, present } from "./reads.ts";
import { read } from "./rows.ts";
import { payments } from "./tables.ts";
import { type ReversalPlan, reverseTransfers } from "./transfers.ts";

/** pg-boss's retries of a refund (provider down): the last one records a reversal it could not make. */
const REFUND_RETRY_LIMIT = 8;

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
 * Refunds all or part of a captured payment (docs/payments.md, "Refunds"). The refunded total, the
 * books and the provider's refund job commit together; the payment becomes `refunded` once nothing
 * is left. Partial refunds are for `paid` payments (captured and their seller paid); a payment
 * whose capture or transfers failed is refunded in full.
 */
export async function refundPayment(
  deps: Deps,
  actor: Principal,
  appId: string,
  paymentId: string,
  input: RefundInput = {},
  idempotencyKey?: string,
) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const key = idempotencyKey && `refund ${idempotencyKey}`;
  const row = await deps.db.transaction(async (tx) => {
    const payment = await loadPayment(tx, appId, paymentId, true);
    if (key && payment.commandKey === key) return payment; // done before its answer was lost
    const refunded = await refundLocked(deps, tx, payment, input, actorName(actor));
    await recordAudit(tx, actor, { appId, action: "payment.refund", targetId: payment.id });
    return remember(tx, refunded, key);
  });
  return present(deps, actor, row);
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
function refundJob(deps: Deps): JobDefinition<RefundJob> {
  return {
    name: REFUND_JOB,
    retryLimit: REFUND_RETRY_LIMIT,
    async handle(job, meta) {
      const payment = await read(deps, job.paymentId);
      if (!payment?.intentId) return;
      const { n, before, after, suffix } = refundOf(job, payment);
      const provider = deps.paymentProviders.byId(payment.providerId as "sandbox" | "stripe");
      const amount = after - before;
      const refund = await provider.refund(
        { intentId: payment.intentId, ...(job.refund === undefined ? {} : { amount }) },
        { idempotencyKey: `${payment.id}:refund${suffix}` },
      );
      await deps.db.transaction((tx) =>
        postPaymentEvents(
          tx,
          payment,
          [{ type: "refund_settled", n, amount: refund.amount, reference: refund.id }],
          deps.now(),
        ),
      );
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

/**
 * The seller's transfers of a payment whose money went back to the shopper are reversed. When a
 * reversal is refused, the seller kept their share, which the platform now owes itself: said on
 * the payment and in the log, for the operator to settle with the seller (the seller's payable
 * account in the books shows what they owe back).
 */
async function takeBackTransfers(
  deps: Deps,
  paymentId: string,
  lastTry: boolean,
  after: string,
  plan?: ReversalPlan,
) {
  const payment = await read(deps, paymentId);
  if (!payment) return;
  const provider = deps.paymentProviders.byId(payment.providerId as "sandbox" | "stripe");
  const failure = await reverseTransfers(
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
function reverseTransfersJob(deps: Deps): JobDefinition<PaymentJob> {
  return {
    name: REVERSE_TRANSFERS_JOB,
    retryLimit: REFUND_RETRY_LIMIT,
    async handle({ paymentId }, meta) {
      await takeBackTransfers(deps, paymentId, meta.retryCount >= REFUND_RETRY_LIMIT, "a bank return");
    },
  };
}

export function refundJobs(deps: Deps): JobDefinition<never>[] {
  return [refundJob(deps), reverseTransfersJob(deps)] as JobDefinition<never>[];
}
