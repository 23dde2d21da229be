import { eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { recordAudit } from "../../platform/audit/log.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import type { Tx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/http/errors.ts";
import { requireAppRole } from "../apps/access.ts";
import { isExpired } from "../prices/presenters.ts";
import { findPrice } from "../prices/queries.ts";
import { actorName } from "./create.ts";
import {
  AUTHORIZE_JOB,
  type AuthorizeJob,
  EXECUTE_JOB,
  PREPARE_INTENT_JOB,
  RELEASE_HOLD_JOB,
  SETTLE_JOB,
} from "./job-names.ts";
import { type PaymentRow, transition } from "./lifecycle.ts";
import { paymentMethodFor } from "./payment-methods.ts";
import { loadPayment, present } from "./reads.ts";
import { payments } from "./tables.ts";

// What the app (and the shopper's page) can ask of an open payment: confirm, cancel, refund,
// retry a failed step. Each is one transaction on the locked payment, its jobs committed with it.

export interface ConfirmInput {
  payment_method:
    | { type: "card"; number: string; exp_month: number; exp_year: number; cvc: string }
    | { type: "us_bank_account"; routing_number: string; account_number: string; account_holder_name: string }
    | { type: "token"; id: string };
  return_url?: string;
}

/**
 * Asks the provider to authorise (card) or debit (bank) the payment, as a job committed with the
 * request: the answer is the payment, still `pending`, which moves on as the job runs. A payment
 * whose price has expired since it was opened is cancelled instead, and the answer is 409.
 */
export async function requestAuthorization(
  deps: Deps,
  actor: Principal | "shopper",
  payment: PaymentRow,
  input: ConfirmInput,
  mandate: { ipAddress: string; userAgent: string },
  idempotencyKey?: string,
) {
  // Only a payment method id is stored or queued from here on: never card or account numbers.
  const method = await paymentMethodFor(deps, payment, input.payment_method);
  const outcome = await deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(payments).where(eq(payments.id, payment.id)).for("update");
    // The same confirm again (same Idempotency-Key) after its answer was lost: it did its work.
    if (idempotencyKey && locked.confirmKey === idempotencyKey && locked.authState !== "none") {
      return { updated: locked };
    }
    if (locked.status !== "pending" || locked.authState !== "none") {
      throw new AppError("invalid_state_transition", "This payment is already being paid or is not pending");
    }
    const price = await findPrice(tx, locked.priceId);
    if (!price || isExpired(price, deps.now())) {
      // It can never be paid now: cancelled (nothing was charged) and its provider intent released,
      // committed before the 409 answers.
      await transition(deps, tx, locked, "cancelled", {
        actor: actorName(actor),
        reason: "the price expired before the payment was confirmed",
      });
      await deps.jobs.send(tx, RELEASE_HOLD_JOB, { paymentId: locked.id });
      return { expired: true as const };
    }
    const attempt = locked.confirmAttempts + 1;
    const [updated] = await tx
      .update(payments)
      .set({
        authState: "requested",
        confirmAttempts: attempt,
        confirmKey: idempotencyKey ?? null,
        updatedAt: deps.now(),
      })
      .where(eq(payments.id, payment.id))
      .returning();
    await deps.jobs.send<AuthorizeJob>(tx, AUTHORIZE_JOB, {
      paymentId: payment.id,
      attempt,
      method,
      returnUrl: input.return_url ?? null,
      mandate,
      actor: actorName(actor),
    });
    return { updated };
  });
  if ("expired" in outcome) {
    throw new AppError("conflict", "This price has expired: the payment cannot be paid and is now cancelled");
  }
  return outcome.updated;
}

export async function confirmPayment(
  deps: Deps,
  actor: Principal,
  appId: string,
  paymentId: string,
  input: ConfirmInput,
  mandate: { ipAddress: string; userAgent: string },
  idempotencyKey?: string,
) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const payment = await loadPayment(deps.db, appId, paymentId);
  return present(
    deps,
    actor,
    await requestAuthorization(deps, actor, payment, input, mandate, idempotencyKey),
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
        "The bank debit is already collected: refund it instead",
      );
    }
    if (payment.status === "pending" && payment.authState !== "none") {
      throw new AppError(
        "invalid_state_transition",
        "The payment is being authorised; cancel it once it is on hold",
      );
    }
    if (payment.status === "hold" && payment.signedAt) throw callSent(payment);
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
 * `retry` of a card payment whose contract call the chain refused: its hold was released, so
 * nothing can be captured; the payment is reopened (`pending`, a new provider intent) for the app
 * or the shopper to confirm again, and then runs the call afresh.
 */
async function reopen(deps: Deps, tx: Tx, payment: PaymentRow, actor: string) {
  const reopened = await transition(deps, tx, payment, "pending", {
    actor,
    reason: "retried after the contract call was refused: confirm the payment again",
    set: {
      intentId: null,
      intentRound: payment.intentRound + 1,
      authState: "none",
      nextAction: null,
      confirmKey: null,
      sentTransaction: null,
      signedAt: null,
      transactionId: null,
      transactionUrl: null,
      confirmationStatus: {},
      transactionResponse: {},
    },
  });
  await deps.jobs.send(tx, PREPARE_INTENT_JOB, { paymentId: payment.id });
  return reopened;
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
