import { and, eq, type SQL } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { hashToken } from "../../platform/auth/secrets.ts";
import type { Tx } from "../../platform/db/index.ts";
import { AppError, notFound } from "../../platform/http/errors.ts";
import { countUpTo, type Page, pageWindow } from "../../platform/http/pagination.ts";
import { getApp } from "../apps/service.ts";
import { requireAppRole } from "../members/access.ts";
import { isExpired } from "../prices/presenters.ts";
import { prices } from "../prices/tables.ts";
import { actorName, type CreatePaymentInput, openPayment } from "./create.ts";
import {
  AUTHORIZE_JOB,
  type AuthorizeJob,
  EXECUTE_JOB,
  REFUND_JOB,
  RELEASE_HOLD_JOB,
  SETTLE_JOB,
} from "./job-names.ts";
import { type PaymentRow, transition } from "./lifecycle.ts";
import { paymentMethodFor } from "./payment-methods.ts";
import { openPaymentToken } from "./payment-token.ts";
import { presentPayment } from "./presenters.ts";
import { type PaymentStatus, payments } from "./tables.ts";

export interface ConfirmInput {
  payment_method:
    | { type: "card"; number: string; exp_month: number; exp_year: number; cvc: string }
    | { type: "us_bank_account"; routing_number: string; account_number: string; account_holder_name: string }
    | { type: "token"; id: string };
  return_url?: string;
}

/** A payment as the app's own credentials read it: with its payment token. */
async function present(deps: Deps, actor: Principal, row: PaymentRow) {
  const [app, [price]] = await Promise.all([
    getApp(deps, actor, row.appId),
    deps.db.select().from(prices).where(eq(prices.id, row.priceId)),
  ]);
  return presentPayment(row, {
    app,
    price,
    now: deps.now(),
    paymentToken: openPaymentToken(deps.custody, row),
  });
}

/** `createKey`: the request's Idempotency-Key with its scope, kept on the payment (see `openPayment`). */
export async function createPayment(
  deps: Deps,
  actor: Principal,
  appId: string,
  input: CreatePaymentInput,
  createKey?: string,
) {
  const { row, token, price, app } = await openPayment(deps, actor, appId, input, createKey);
  return presentPayment(row, { app, price, now: deps.now(), paymentToken: token });
}

async function loadPayment(db: Deps["db"] | Tx, appId: string, paymentId: string, lock = false) {
  const query = db
    .select()
    .from(payments)
    .where(and(eq(payments.appId, appId), eq(payments.id, paymentId)));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound("Payment");
  return row;
}

export async function getPayment(deps: Deps, actor: Principal, appId: string, paymentId: string) {
  await requireAppRole(deps.db, actor, appId, "view");
  return present(deps, actor, await loadPayment(deps.db, appId, paymentId));
}

export async function listPayments(
  deps: Deps,
  actor: Principal,
  appId: string,
  page: Page,
  filters: { status?: PaymentStatus; price_id?: string },
) {
  await requireAppRole(deps.db, actor, appId, "view");
  const conditions: SQL[] = [eq(payments.appId, appId)];
  if (filters.status) conditions.push(eq(payments.status, filters.status));
  if (filters.price_id) conditions.push(eq(payments.priceId, filters.price_id));
  const where = and(...conditions);
  const window = await pageWindow(deps.db, page, {
    table: payments,
    createdAt: payments.createdAt,
    id: payments.id,
    scope: eq(payments.appId, appId),
    newestFirst: true,
  });
  const [fetched, total, app] = await Promise.all([
    deps.db
      .select({ payment: payments, price: prices })
      .from(payments)
      .innerJoin(prices, eq(prices.id, payments.priceId))
      .where(and(where, window.where))
      .orderBy(...window.orderBy)
      .limit(window.limit)
      .offset(window.offset),
    countUpTo(deps, payments, where),
    getApp(deps, actor, appId),
  ]);
  const { rows, neighbours } = window.finish(fetched, (r) => r.payment.id);
  const now = deps.now();
  const items = rows.map((r) =>
    presentPayment(r.payment, {
      app,
      price: r.price,
      now,
      paymentToken: openPaymentToken(deps.custody, r.payment),
    }),
  );
  return { items, total, neighbours };
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
    const [price] = await tx.select().from(prices).where(eq(prices.id, locked.priceId));
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

export async function cancelPayment(
  deps: Deps,
  actor: Principal,
  appId: string,
  paymentId: string,
  reason?: string,
) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const row = await withLockedPayment(deps, appId, paymentId, async (tx, payment) => {
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
    const held = payment.status === "hold";
    const moved = await transition(deps, tx, payment, "cancelled", {
      actor: actorName(actor),
      reason: reason ?? "cancelled by the app",
    });
    if (held) await deps.jobs.send(tx, RELEASE_HOLD_JOB, { paymentId: payment.id });
    return moved;
  });
  return present(deps, actor, row);
}

export async function refundPayment(
  deps: Deps,
  actor: Principal,
  appId: string,
  paymentId: string,
  reason?: string,
) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const row = await withLockedPayment(deps, appId, paymentId, async (tx, payment) => {
    const moved = await transition(deps, tx, payment, "refunded", {
      actor: actorName(actor),
      reason: reason ?? "refunded by the app",
    });
    await deps.jobs.send(tx, REFUND_JOB, { paymentId: payment.id });
    return moved;
  });
  return present(deps, actor, row);
}

/** Tries the failed step again: the chain call after `failed-captured`, the transfers after `failed-transfers`. */
export async function retryPayment(deps: Deps, actor: Principal, appId: string, paymentId: string) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const row = await withLockedPayment(deps, appId, paymentId, async (tx, payment) => {
    const status = payment.status;
    if (status === "failed-transfers") await deps.jobs.send(tx, SETTLE_JOB, { paymentId: payment.id });
    else if (status === "failed-captured")
      await deps.jobs.send(tx, EXECUTE_JOB, { paymentId: payment.id, retry: true });
    else throw new AppError("invalid_state_transition", `A ${status} payment has no failed step to retry`);
    return payment;
  });
  return present(deps, actor, row);
}

/** The payment a shopper's page token names, or 404. */
export async function paymentByToken(deps: Deps, token: string) {
  const [row] = await deps.db
    .select()
    .from(payments)
    .where(eq(payments.paymentTokenHash, hashToken(token)));
  if (!row) throw notFound("Payment");
  return row;
}

/**
 * For payments opened with `defer_execution` (auction bids): run the contract call and capture a
 * held payment now. Sent inside the caller's transaction, so it commits with the caller's change.
 */
export async function executePayment(deps: Deps, tx: Tx, paymentId: string) {
  const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for("update");
  if (payment?.status !== "hold") {
    throw new AppError("invalid_state_transition", "Only a held payment can be executed");
  }
  await deps.jobs.send(tx, EXECUTE_JOB, { paymentId });
}

/** Releases a held (or still pending) payment inside the caller's transaction: an outbid bid. */
export async function releasePayment(deps: Deps, tx: Tx, paymentId: string, reason: string) {
  const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for("update");
  if (!payment || (payment.status !== "hold" && payment.status !== "pending")) return payment;
  if (payment.capturedAmount > 0n) {
    const refunded = await transition(deps, tx, payment, "failed-captured", { actor: "system", reason });
    await deps.jobs.send(tx, REFUND_JOB, { paymentId });
    return transition(deps, tx, refunded, "refunded", { actor: "system", reason });
  }
  const held = payment.status === "hold" || payment.intentId !== null;
  const moved = await transition(deps, tx, payment, "cancelled", { actor: "system", reason });
  if (held) await deps.jobs.send(tx, RELEASE_HOLD_JOB, { paymentId });
  return moved;
}
