import { and, count, desc, eq, type SQL } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Principal, Role } from "../../platform/auth/principal.ts";
import { hashToken } from "../../platform/auth/secrets.ts";
import { insertInto, Params, statementRunner, type Tx } from "../../platform/db/index.ts";
import { AppError, invalid, notFound } from "../../platform/http/errors.ts";
import type { Page } from "../../platform/http/pagination.ts";
import { newId, newSecret } from "../../platform/ids.ts";
import { currencyOf } from "../../platform/money/currencies.ts";
import type { AppType } from "../../platform/money/fees.ts";
import { quotePriceItem } from "../../platform/money/quote.ts";
import type { PaymentMethodInput } from "../../platform/providers/payments/types.ts";
import { getApp, presentApp } from "../apps/service.ts";
import { checkRole, requireAppRole } from "../members/access.ts";
import { amountToPay } from "../prices/amount.ts";
import { isExpired } from "../prices/presenters.ts";
import { prices } from "../prices/tables.ts";
import { eventParts } from "../webhooks/events.ts";
import { type PaymentContext, PaymentContexts, readContext, unchangedSince } from "./context.ts";
import {
  AUTHORIZE_JOB,
  type AuthorizeJob,
  EXECUTE_JOB,
  type PaymentJob,
  PREPARE_INTENT_JOB,
  REFUND_JOB,
  RELEASE_HOLD_JOB,
  SETTLE_JOB,
} from "./job-names.ts";
import { type PaymentRow, type PaymentStatus, transition } from "./lifecycle.ts";
import { checkPayable } from "./payable.ts";
import { presentPayment } from "./presenters.ts";
import { paymentEvents, payments } from "./tables.ts";

export interface CreatePaymentInput {
  price_id: string;
  /** Internal: hold only (auction bids); see `payments.deferExecution`. */
  defer_execution?: boolean;
  payment_provider: "card" | "us_bank_account";
  trigger_data_input?: { params_data_input: Record<string, unknown> };
  amount?: number | string;
  shopper_email?: string;
}

export interface ConfirmInput {
  payment_method:
    | { type: "card"; number: string; exp_month: number; exp_year: number; cvc: string }
    | { type: "us_bank_account"; routing_number: string; account_number: string; account_holder_name: string }
    | { type: "token"; id: string };
  return_url?: string;
}

const actorName = (actor: Principal | "shopper") =>
  actor === "shopper" ? "shopper" : actor.kind === "user" ? `user:${actor.userId}` : `api_key:${actor.keyId}`;

/**
 * Creates a pending payment for a price: the amount (a dynamic price takes the shopper's, at least
 * its own), the fee split and the exchange rate are fixed now and never recomputed. Used by the
 * API and by the hosted checkout (`actor` "shopper").
 *
 * One round trip when this process created a payment of the same price for the same caller in the
 * last minute, two otherwise, and no BEGIN/COMMIT on either engine. The context (app, price,
 * trigger, role, seller, webhook endpoints) is read in one statement and remembered; the write is
 * one statement too: the payment, its first event, the `payment.pending` webhook deliveries and
 * the provider-intent job, all written only if every row the context came from is unchanged
 * (`unchangedSince`), so all or none commit and none on a stale context. A remembered context
 * that is stale, or that refused the payment, is read afresh and decided again.
 */
export async function openPayment(
  deps: Deps,
  actor: Principal | "shopper",
  appId: string,
  input: CreatePaymentInput,
) {
  const key = {
    appId,
    priceId: input.price_id,
    userId: actor !== "shopper" && actor.kind === "user" ? actor.userId : null,
  };
  const contexts = PaymentContexts.of(deps.db);
  const remembered = contexts.get(key);
  if (remembered) {
    try {
      const opened = await writePayment(deps, actor, input, key, remembered);
      if (opened) return opened;
    } catch (error) {
      // Only a refusal is decided again; a failed write is not retried (it may have committed).
      if (!(error instanceof AppError)) throw error;
    }
    contexts.delete(key);
  }
  // A change between the read and the write (an app or price edited at that moment) reads again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const context = await readContext(deps.db, key);
    const opened = await writePayment(deps, actor, input, key, context);
    if (opened) {
      contexts.set(key, context!);
      return opened;
    }
  }
  throw new AppError(
    "conflict",
    "The price or its app kept changing while the payment was created; try again",
  );
}

/**
 * Decides and writes a new payment on `context`; answers nothing (and writes nothing) if a row
 * the context came from has changed since it was read.
 */
async function writePayment(
  deps: Deps,
  actor: Principal | "shopper",
  input: CreatePaymentInput,
  key: { appId: string; priceId: string; userId: string | null },
  context: PaymentContext | undefined,
) {
  const { appId } = key;
  const token = newSecret("pt_");
  let role: Role | undefined;
  if (actor !== "shopper") {
    // An API key acts for its one app, with the developer role.
    const found =
      actor.kind === "api_key" ? (actor.appId === appId ? "developer" : undefined) : context?.role;
    role = checkRole(context ? (found as Role | undefined) : undefined, "edit");
  }
  const price = context?.price;
  if (!context || !price) throw invalid("/body/price_id", "no such price in this app");
  if (isExpired(price, deps.now()))
    throw new AppError("conflict", "This price has expired and cannot be paid");
  // DECISIONS 10: a seller the app deactivated (`PATCH active: false`) takes no new payments.
  if (context.sellerActive === false)
    throw new AppError("conflict", "The seller of this price is deactivated");
  const currency = currencyOf(price.currency, "price.currency");
  const amount = amountToPay(price, input.amount, currency, "/body/amount");
  const params = checkPayable(context, input.trigger_data_input?.params_data_input ?? {});
  const quote = await quotePriceItem(deps.config.money, deps.rates, {
    amount,
    currency,
    provider: input.payment_provider,
    appType: context.app.type as AppType,
    appFeeBps: context.app.appFeeBps,
  });
  const fees = quote.fees;
  if (fees.amount_seller < 0n) throw new AppError("conflict", "The fees leave the seller a negative share");
  const provider = deps.paymentProviders.forMethod(input.payment_provider);
  const now = deps.now();
  const id = newId("pay");
  // Every column is written, so the row answered is the row stored and nothing is read back.
  const row: PaymentRow = {
    id,
    appId,
    priceId: price.id,
    status: "pending",
    method: input.payment_provider,
    providerId: provider.id,
    amount,
    currency: currency.code,
    chargeAmount: fees.amount_total,
    chargeCurrency: fees.currency.code,
    sellerAmount: fees.amount_seller,
    appAmount: fees.amount_app,
    platformAmount: fees.amount_platform,
    priceItem: quote.priceItem as unknown as Record<string, unknown>,
    rate: { num: String(quote.rate.ratio.num), den: String(quote.rate.ratio.den) },
    triggerId: price.triggerId,
    triggerDataInput: { params_data_input: params },
    kycId: price.kycId,
    shopperEmail: input.shopper_email?.toLowerCase() ?? null,
    deferExecution: input.defer_execution ?? false,
    paymentTokenHash: hashToken(token),
    transactionResponse: {},
    confirmationStatus: {},
    createdAt: now,
    updatedAt: now,
    intentId: null,
    capturedAmount: 0n,
    refundedAmount: 0n,
    nextAction: null,
    sentTransaction: null,
    transactionId: null,
    transactionUrl: null,
    authState: "none",
    transfers: {},
    confirmAttempts: 0,
  };
  const values = new Params();
  const written = "(select ok from current_context)";
  const parts = [
    `current_context as (select ${unchangedSince(key, context.versions, values)} as ok)`,
    `payment as (${insertInto(payments, row, values, written)})`,
    `event as (${insertInto(
      paymentEvents,
      {
        id: newId("pev"),
        paymentId: id,
        fromStatus: null,
        toStatus: "pending",
        actor: actorName(actor),
        reason: "created",
        createdAt: now,
      },
      values,
      written,
    )})`,
    ...eventParts(
      deps,
      context.endpoints,
      {
        appId,
        type: "payment.pending",
        data: { id, status: "pending", previous_status: null, reason: "created" },
      },
      values,
      "webhook_",
      written,
    ),
    // The provider intent is made ahead of the shopper's payment method, off the request path.
    `intent_job as (${deps.jobs.sendPart<PaymentJob>(values, PREPARE_INTENT_JOB, { paymentId: id }, written)})`,
  ];
  const [result] = await statementRunner(deps.database)(
    `with ${parts.join(",\n")}\nselect ok from current_context`,
    values.values,
  );
  if (result?.ok !== true) return undefined;
  deps.jobs.relaySoon();
  return { row, token, price, app: presentApp(context.app, context.owner, role) };
}

async function present(deps: Deps, actor: Principal, row: PaymentRow, paymentToken?: string) {
  const [app, [price]] = await Promise.all([
    getApp(deps, actor, row.appId),
    deps.db.select().from(prices).where(eq(prices.id, row.priceId)),
  ]);
  return presentPayment(row, { app, price, now: deps.now(), paymentToken });
}

export async function createPayment(deps: Deps, actor: Principal, appId: string, input: CreatePaymentInput) {
  const { row, token, price, app } = await openPayment(deps, actor, appId, input);
  return presentPayment(row, { app, price, now: deps.now(), paymentToken: token });
}

export async function loadPayment(db: Deps["db"] | Tx, appId: string, paymentId: string, lock = false) {
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
  filters: { status?: string; price_id?: string },
) {
  await requireAppRole(deps.db, actor, appId, "view");
  const conditions: SQL[] = [eq(payments.appId, appId)];
  if (filters.status) conditions.push(eq(payments.status, filters.status));
  if (filters.price_id) conditions.push(eq(payments.priceId, filters.price_id));
  const where = and(...conditions);
  const [rows, [{ total }], app] = await Promise.all([
    deps.db
      .select({ payment: payments, price: prices })
      .from(payments)
      .innerJoin(prices, eq(prices.id, payments.priceId))
      .where(where)
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(page.limit)
      .offset(page.offset),
    deps.db.select({ total: count() }).from(payments).where(where),
    getApp(deps, actor, appId),
  ]);
  const now = deps.now();
  return { items: rows.map((r) => presentPayment(r.payment, { app, price: r.price, now })), total };
}

function methodInput(input: ConfirmInput["payment_method"]): PaymentMethodInput {
  switch (input.type) {
    case "card":
      return {
        type: "card",
        number: input.number.replace(/ /g, ""),
        expMonth: input.exp_month,
        expYear: input.exp_year,
        cvc: input.cvc,
      };
    case "us_bank_account":
      return {
        type: "us_bank_account",
        routingNumber: input.routing_number,
        accountNumber: input.account_number,
        accountHolderName: input.account_holder_name,
      };
    case "token":
      return { type: "token", id: input.id };
  }
}

/**
 * Asks the provider to authorise (card) or debit (bank) the payment, as a job committed with the
 * request: the answer is the payment, still `pending`, which moves on as the job runs.
 */
export async function requestAuthorization(
  deps: Deps,
  actor: Principal | "shopper",
  payment: PaymentRow,
  input: ConfirmInput,
  mandate: { ipAddress: string; userAgent: string },
) {
  const method = methodInput(input.payment_method);
  if (payment.providerId !== "sandbox" && method.type !== "token") {
    // Raw card and account numbers never reach this service in live mode: Stripe.js tokenises them.
    throw invalid(
      "/body/payment_method/type",
      "must be `token` (a Stripe.js payment method) with this provider",
    );
  }
  if (method.type !== "token" && method.type !== payment.method) {
    throw invalid("/body/payment_method/type", `this payment is paid by ${payment.method}`);
  }
  return deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(payments).where(eq(payments.id, payment.id)).for("update");
    if (locked.status !== "pending" || locked.authState !== "none") {
      throw new AppError("invalid_state_transition", "This payment is already being paid or is not pending");
    }
    const attempt = locked.confirmAttempts + 1;
    const [updated] = await tx
      .update(payments)
      .set({ authState: "requested", confirmAttempts: attempt, updatedAt: deps.now() })
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
    return updated;
  });
}

export async function confirmPayment(
  deps: Deps,
  actor: Principal,
  appId: string,
  paymentId: string,
  input: ConfirmInput,
  mandate: { ipAddress: string; userAgent: string },
) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const payment = await loadPayment(deps.db, appId, paymentId);
  return present(deps, actor, await requestAuthorization(deps, actor, payment, input, mandate));
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
    const status = payment.status as PaymentStatus;
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
