import { eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { recordAudit } from "../../platform/audit/log.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import type { Tx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/http/errors.ts";
import { requireAppRole } from "../apps/access.ts";
import { actorName } from "./create.ts";
import { EXECUTE_JOB, RELEASE_HOLD_JOB, SETTLE_JOB } from "./job-names.ts";
import { type PaymentRow, transition } from "./lifecycle.ts";
import { paymentMethodUnread } from "./payment-methods.ts";
import {
  authorizeJobData,
  type ConfirmInput,
  requestAuthorization,
  requestInOneStatement,
} from "./pipeline/authorize.ts";
import { captureAsked } from "./pipeline/capture.ts";
import { reopen } from "./pipeline/open.ts";
import { loadPayment, paymentFor, present, presentWritten } from "./reads.ts";
import { payments } from "./tables.ts";

// What the app (and the shopper's page) can ask of an open payment: confirm, cancel, refund,
// retry a failed step. Each is one transaction on the locked payment, its jobs committed with it.
// The steps they start are in pipeline/ (docs/payments.md, "The pipeline"): the confirm's is
// authorize.ts, a retried refused call reopens the payment (open.ts).
export { type ConfirmInput, requestAuthorization } from "./pipeline/authorize.ts";

export async function confirmPayment(
  deps: Deps,
  actor: Principal,
  appId: string,
  paymentId: string,
  input: ConfirmInput,
  mandate: { ipAddress: string; userAgent: string },
  idempotencyKey?: string,
) {
  // The usual confirm, the first of a payment, by the app's own API key or a member who may edit
  // its payments, is one statement, the payment not read first: the request is made only while
  // the payment is in the app, `pending`, never confirmed, its price open, paid in the sandbox by
  // the kind raw numbers name, and the member's role allows it (`requestWhileOpen`). Anything else
  // writes nothing and goes the usual way below, which refuses what must be refused, in its order.
  const unread =
    (actor.kind === "user" || actor.appId === appId) && paymentMethodUnread(deps, input.payment_method);
  if (unread) {
    const editor = actor.kind === "user" ? actor.userId : null;
    const target = { id: paymentId, appId, attempts: 0, method: unread.kind, editor };
    const job = (attempt: number) =>
      authorizeJobData(paymentId, attempt, unread.token, input, mandate, actor);
    const first = await requestInOneStatement(deps, target, job, idempotencyKey);
    if (first) return presentWritten(deps, actor, first);
  }
  const { payment, known } = await paymentFor(deps, actor, appId, paymentId, "edit", "whole");
  return present(
    deps,
    actor,
    await requestAuthorization(deps, actor, payment, input, mandate, idempotencyKey),
    known,
  );
}

/** Runs `change` on the locked payment inside a transaction; jobs it sends commit with it. */
async function withLockedPayment(
  deps: Deps,
  appId: string,
  paymentId: string,
  change: (tx: Tx, payment: PaymentRow) => Promise<PaymentRow>,
) {
  return deps.db.transaction(async (tx) => change(tx, await loadPayment(tx, appId, paymentId, true)));
}

/**
 * A signed contract call may already be on its way: cancelling would release the money while the
 * chain still delivers. The chain's outcome decides instead (docs/payments.md, "Once a call is signed").
 */
function callSent(payment: PaymentRow) {
  const id = payment.transactionId ? ` (transaction ${payment.transactionId})` : "";
  return new AppError(
    "invalid_state_transition",
    `A contract call was sent for this payment${id}: it can no longer be cancelled, the chain's outcome decides. It is captured if the call is confirmed, and released (nothing charged) if it reverts or is dropped`,
  );
}

export async function cancelPayment(
  deps: Deps,
  actor: Principal,
  appId: string,
  paymentId: string,
  reason?: string,
  idempotencyKey?: string,
) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const key = idempotencyKey && `cancel ${idempotencyKey}`;
  const row = await withLockedPayment(deps, appId, paymentId, async (tx, payment) => {
    if (key && payment.commandKey === key) return payment; // done before its answer was lost
    if (payment.status === "hold" && payment.capturedAmount > 0n) {
      throw new AppError(
        "invalid_state_transition",
        "The money is already collected (a bank debit, or a card charged at once): refund it instead",
      );
    }
    if (payment.status === "pending" && payment.authState !== "none") {
      throw new AppError(
        "invalid_state_transition",
        "The payment is being authorised; cancel it once it is on hold",
      );
    }
    if (payment.status === "hold" && payment.signedAt) throw callSent(payment);
    if (captureAsked(payment)) {
      throw new AppError(
        "invalid_state_transition",
        "The card is being captured (nothing stands between its hold and its capture, or its owner asked for it): refund the payment once it is paid",
      );
    }
    const held = payment.status === "hold";
    const moved = await transition(deps, tx, payment, "cancelled", {
      actor: actorName(actor),
      reason: reason ?? "cancelled by the app",
    });
    if (held) await deps.jobs.send(tx, RELEASE_HOLD_JOB, { paymentId: payment.id });
    await recordAudit(tx, actor, { appId, action: "payment.cancel", targetId: payment.id });
    return remember(tx, moved, key);
  });
  return present(deps, actor, row);
}

/** A card payment the chain step ended as `failed`: the node refused the call, its hold was released. */
function refusedByChain(payment: PaymentRow): boolean {
  const error = payment.transactionResponse.error as { step?: string; retryable?: boolean } | null;
  return (
    error?.step === "chain" &&
    error.retryable === true &&
    payment.capturedAmount === 0n &&
    !payment.deferExecution
  );
}

/**
 * Tries the failed step again: the chain call after `failed-captured`, the transfers after
 * `failed-transfers`; a card payment the chain refused is reopened (`reopen`).
 */
export async function retryPayment(
  deps: Deps,
  actor: Principal,
  appId: string,
  paymentId: string,
  idempotencyKey?: string,
) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const key = idempotencyKey && `retry ${idempotencyKey}`;
  const row = await withLockedPayment(deps, appId, paymentId, async (tx, payment) => {
    if (key && payment.commandKey === key) return payment; // done before its answer was lost
    const status = payment.status;
    if (status === "failed" && refusedByChain(payment)) {
      await recordAudit(tx, actor, { appId, action: "payment.retry", targetId: payment.id });
      return remember(tx, await reopen(deps, tx, payment, actorName(actor)), key);
    }
    if (status === "failed-transfers") await deps.jobs.send(tx, SETTLE_JOB, { paymentId: payment.id });
    else if (status === "failed-captured")
      await deps.jobs.send(tx, EXECUTE_JOB, { paymentId: payment.id, retry: true });
    else throw new AppError("invalid_state_transition", `A ${status} payment has no failed step to retry`);
    await recordAudit(tx, actor, { appId, action: "payment.retry", targetId: payment.id });
    return remember(tx, payment, key);
  });
  return present(deps, actor, row);
}

/**
 * Keeps the command's Idempotency-Key on the payment, in the command's own transaction: a retry
 * of it after a crash between this commit and the stored answer is answered with the payment
 * (docs/reliability.md), not refused because the payment has moved on.
 */
export async function remember(tx: Tx, payment: PaymentRow, key: string | undefined): Promise<PaymentRow> {
  if (!key) return payment;
  const [updated] = await tx
    .update(payments)
    .set({ commandKey: key })
    .where(eq(payments.id, payment.id))
    .returning();
  return updated ?? payment;
}
