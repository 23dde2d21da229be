// Step 2, authorize: the shopper's payment method secures the money (`pending -> hold`).
//
// What it does: `requestAuthorization` (the confirm; commands.ts makes a payment's first confirm
// without reading it, `requestInOneStatement`) marks the payment `requested` and sends
// `payments.authorize`, which makes the provider intent and confirms it with the payment method
// (provider-authorization.ts), in one provider call where the provider can
// (`createAndConfirmIntent`: the sandbox's, Stripe's `confirm: true`; else open.ts `requestIntent`,
// then the confirm; a payment never confirmed has no intent at all), or confirms the intent an
// earlier declined try made; `applyIntent` applies the provider's answer: a held card or a
// collected bank debit is `hold` (and the next step, execute
// or settle, is asked for in that transaction; or, with nothing to happen between, this job goes
// on to settle the payment itself, transfer-to-seller.ts `settlesWithAuthorization`), a decline is
// `failed` (on the hosted checkout the payment stays `pending` for the next card,
// checkout-tries.ts), a 3-D Secure step or a debit in flight is looked at again by
// `payments.sync`. A price that expired before the confirm cancels the payment
// (`pending -> cancelled`), with its intent released if it has one.
// Compensation: release-hold. A hold that is never captured (cancelled, or its contract call
// failed) is released by that job; a collected bank debit cannot be released and is refunded.
// After a crash: the confirm's `requested` mark and its job commit together (one statement, the
// job through the outbox; on the locked row's way, one transaction). The provider call is
// keyed `<payment>:create-confirm:<attempt>` (or `<payment>:confirm:<attempt>`), so a retried job is
// answered the same authorisation, never a second one; the answer is applied in one transaction
// with the next step's job, and only to a payment still `pending`, so applying it twice (the job,
// the sync job, a webhook) moves it once.
// A card with nothing to happen before its capture is charged by the authorising call itself (its
// intent made with automatic capture, open.ts) and moved through `hold` to `paid` in one
// statement (capture.ts, `paidOnAuthorization`): a job that dies between the call and that
// statement is run again and answered the same call under its key (test/payments/crash.test.ts,
// "capture-sent"); one that dies after a hold committed (a held card whose capture was refused
// for now) finds the payment `hold` and settles it. A job that gives up on a card
// (the provider down through every retry) leaves the release job to undo what an earlier try may
// have made unrecorded, a hold or a capture (release-hold.ts, test/payments/authorize-unanswered.test.ts).
import { eq } from "drizzle-orm";
import type { Deps } from "../../../deps.ts";
import type { Principal } from "../../../platform/auth/principal.ts";
import type { Tx } from "../../../platform/db/index.ts";
import { AppError } from "../../../platform/http/errors.ts";
import type { JobDefinition } from "../../../platform/jobs/index.ts";
import type { ProviderIntent } from "../../../platform/providers/payments/types.ts";
import { isExpired } from "../../prices/presenters.ts";
import { findPrice } from "../../prices/queries.ts";
import { keepOpenForNextMethod, withDecline } from "../checkout-tries.ts";
import { actorName } from "../create.ts";
import {
  AUTHORIZE_JOB,
  type AuthorizeJob,
  EXECUTE_JOB,
  type PaymentJob,
  RELEASE_HOLD_JOB,
  SETTLE_JOB,
  SYNC_JOB,
} from "../job-names.ts";
import { moveUnlocked, type PaymentRow, transition } from "../lifecycle.ts";
import { paymentMethodFor } from "../payment-methods.ts";
import { authorizeAtProvider } from "../provider-authorization.ts";
import { applyReturn, isCollectedDebit, returnOf, watchForReturn } from "../returns.ts";
import { locked, read } from "../rows.ts";
import { type RequestTarget, requestWhileOpen } from "../sql.ts";
import { payments } from "../tables.ts";
import { paidOnAuthorization } from "./capture.ts";
import { settle, settlesWithAuthorization } from "./transfer-to-seller.ts";

const SYSTEM = "system";

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
  const method = paymentMethodFor(deps, payment, input.payment_method);
  const job = (attempt: number) => authorizeJobData(payment.id, attempt, method, input, mandate, actor);
  if (payment.status === "pending" && payment.authState === "none") {
    // The usual confirm, in one statement while the payment is still as read and its price open.
    const { id, appId, confirmAttempts: attempts } = payment;
    // The payment method's kind and the caller's role were checked on the row as read.
    const target = { id, appId, attempts, method: null, editor: null };
    const requested = await requestInOneStatement(deps, target, job, idempotencyKey);
    if (requested) return requested.payment;
  }
  // Anything else is decided on the locked row: a replay, a confirm that came first, an expired price.
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
      // It can never be paid now: cancelled (nothing was charged) and its provider intent, made by
      // an earlier declined try if any, released, committed before the 409 answers.
      await transition(deps, tx, locked, "cancelled", {
        actor: actorName(actor),
        reason: "the price expired before the payment was confirmed",
      });
      if (locked.intentId) await deps.jobs.send(tx, RELEASE_HOLD_JOB, { paymentId: locked.id });
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
    await deps.jobs.send<AuthorizeJob>(tx, AUTHORIZE_JOB, job(attempt));
    return { updated };
  });
  if ("expired" in outcome) {
    throw new AppError("conflict", "This price has expired: the payment cannot be paid and is now cancelled");
  }
  return outcome.updated;
}

/** The authorize job of a confirm's `attempt`: what it is queued with, a payment method id only. */
export function authorizeJobData(
  paymentId: string,
  attempt: number,
  method: AuthorizeJob["method"],
  input: ConfirmInput,
  mandate: AuthorizeJob["mandate"],
  actor: Principal | "shopper",
): AuthorizeJob {
  const returnUrl = input.return_url ?? null;
  return { paymentId, attempt, method, returnUrl, mandate, actor: actorName(actor) };
}

/**
 * `requestWhileOpen` with the authorize job of attempt `target.attempts + 1`, the relay told once
 * it committed. Undefined when the payment was not as `target` says: nothing was written.
 */
export async function requestInOneStatement(
  deps: Deps,
  target: RequestTarget,
  job: (attempt: number) => AuthorizeJob,
  idempotencyKey: string | undefined,
) {
  const requested = await requestWhileOpen(
    deps.database,
    target,
    { key: idempotencyKey ?? null, at: deps.now() },
    (when) => [deps.jobs.sendPart<AuthorizeJob>(AUTHORIZE_JOB, job(target.attempts + 1), when)],
  );
  if (requested) deps.jobs.relaySoon();
  return requested;
}

/**
 * Applies what the provider says of an intent to a payment that is still waiting for its
 * authorisation, and stores the intent's id on it if it has none (the authorize job's first
 * answer). Only a pending payment moves here, so a late or repeated event (a webhook after
 * the job already applied the answer) cannot move a payment backwards.
 * `read` is the payment as the authorize job read it, given by that job alone: a payment it holds
 * that `settlesWithAuthorization` is answered (the held row) instead of handed to a settle job, and
 * the job settles it itself. Anything else answers undefined.
 */
export async function applyIntent(
  deps: Deps,
  paymentId: string,
  intent: ProviderIntent,
  actor: string,
  polls = 0,
  read?: PaymentRow,
): Promise<PaymentRow | undefined> {
  // A card held, the usual answer, in one statement while the payment is still pending as `read`
  // (by the job, before its provider call): the hold, its webhook deliveries and the next step's
  // job together. Anything else is decided in the transaction below, on the locked row.
  if (read?.status === "pending" && intent.status === "requires_capture" && !read.deferExecution) {
    const settlesHere = settlesWithAuthorization(read);
    const next = read.triggerId ? EXECUTE_JOB : SETTLE_JOB;
    const held = await moveUnlocked(
      deps,
      read,
      "hold",
      {
        actor,
        reason: "card authorised",
        set: {
          intentId: read.intentId ?? intent.id,
          authState: "done",
          nextAction: null,
          capturedAmount: 0n,
        },
      },
      (when) => (settlesHere ? [] : [deps.jobs.sendPart<PaymentJob>(next, { paymentId }, when)]),
    );
    if (held) return settlesHere ? held : undefined;
  }
  // While the shopper completes a 3-D Secure step or a bank debit clears, look again every few
  // seconds for half an hour: the provider's webhook usually comes first, this is the backstop.
  const lookAgain = (tx: Tx) =>
    polls < 900
      ? deps.jobs.send<PaymentJob>(tx, SYNC_JOB, { paymentId, polls: polls + 1 }, { startAfter: 2 })
      : null;
  return await deps.db.transaction(async (tx): Promise<PaymentRow | undefined> => {
    const found = await locked(tx, paymentId);
    if (found?.status !== "pending") {
      // Moved on while the provider held the card: a hold the payment never recorded is released.
      if (found && intent.status === "requires_capture" && found.intentId !== intent.id) {
        await deps.jobs.send<PaymentJob>(tx, RELEASE_HOLD_JOB, { paymentId, intentId: intent.id });
      }
      return;
    }
    const payment = found.intentId ? found : await recordIntent(tx, found, intent.id);
    switch (intent.status) {
      case "requires_action":
        await tx
          .update(payments)
          .set({
            authState: "action_required",
            nextAction: intent.nextAction
              ? { type: intent.nextAction.type, url: intent.nextAction.url }
              : null,
            updatedAt: deps.now(),
          })
          .where(eq(payments.id, paymentId));
        await lookAgain(tx);
        return;
      case "requires_capture":
      case "succeeded": {
        // A held card, or a collected bank debit: the money is secured, the contract call may run.
        const held = await transition(deps, tx, payment, "hold", {
          actor,
          reason: intent.method === "us_bank_account" ? "bank debit collected" : "card authorised",
          set: {
            authState: "done",
            nextAction: null,
            capturedAmount: intent.status === "succeeded" ? intent.amountReceived : 0n,
          },
        });
        // A collected debit can still come back from the shopper's bank: keep an eye on it.
        if (isCollectedDebit(held)) await watchForReturn(deps, tx, paymentId);
        // A deferred payment (an auction bid) waits: `transition` told its owner it is held. Without
        // a contract call, the execute step would only ask for the settle job: ask for it here, in
        // the transaction that records the hold, and save the payment a job (or two, when the
        // authorize job settles it itself).
        if (payment.deferExecution) return undefined;
        if (read && settlesWithAuthorization(payment)) return held;
        const next = payment.triggerId ? EXECUTE_JOB : SETTLE_JOB;
        await deps.jobs.send<PaymentJob>(tx, next, { paymentId });
        return undefined;
      }
      case "processing":
        // A bank debit on its way: look again shortly (the provider's webhook may come first).
        await tx.update(payments).set({ authState: "done" }).where(eq(payments.id, paymentId));
        await lookAgain(tx);
        return;
      case "canceled":
      case "requires_payment_method": {
        if (await keepOpenForNextMethod(deps, tx, payment, intent)) return;
        const error = intent.lastError;
        await transition(deps, tx, payment, "failed", {
          actor,
          reason: error?.message ?? "the provider refused the payment",
          set: {
            authState: "done",
            nextAction: null,
            transactionResponse: withDecline(payment.transactionResponse, error, "Payment failed"),
          },
        });
        return;
      }
      default:
        return;
    }
  });
}

/** The intent's id stored on a pending payment that has none yet (the authorize job's answer). */
async function recordIntent(tx: Tx, payment: PaymentRow, intentId: string): Promise<PaymentRow> {
  await tx.update(payments).set({ intentId }).where(eq(payments.id, payment.id));
  return { ...payment, intentId };
}

/** pg-boss's retries of the authorize job (the queues' default) before it gives up. */
export const AUTHORIZE_RETRY_LIMIT = 8;

/**
 * The job's last try failed too (the provider down for longer than the back-off, about 8 minutes,
 * or a refusal that is not a decline): the payment ends `failed` with the reason and a
 * `payment.failed` webhook instead of being authorised for ever. Nothing was recorded as held or
 * captured; what an earlier try may have left at the provider, its answer lost (a worker that died
 * after the call), is undone by the release job: a card's intents found by the payment's id
 * (`unanswered`), a hold released, a capture refunded. Only while the payment waits for this confirm.
 */
async function gaveUpAuthorizing(deps: Deps, job: AuthorizeJob, error: unknown) {
  await deps.db.transaction(async (tx) => {
    const payment = await locked(tx, job.paymentId);
    const waiting = payment?.status === "pending" && payment.authState === "requested";
    if (!waiting || payment.confirmAttempts !== job.attempt) return;
    const code = error instanceof AppError ? error.code : "provider_unavailable";
    const words = error instanceof Error ? error.message : String(error);
    const message = `${words} (gave up after ${AUTHORIZE_RETRY_LIMIT + 1} tries; nothing was captured: confirm a new payment)`;
    await transition(deps, tx, payment, "failed", {
      actor: SYSTEM,
      reason: message,
      set: {
        authState: "done",
        nextAction: null,
        transactionResponse: { ...payment.transactionResponse, error: { code, decline_code: null, message } },
      },
    });
    // The try that may have left an intent unrecorded ran a back-off (minutes) before this one: long
    // enough for the provider's search to see it (Stripe's lags up to a minute).
    const unanswered = payment.method === "card";
    if (payment.intentId || unanswered) {
      await deps.jobs.send<PaymentJob>(tx, RELEASE_HOLD_JOB, { paymentId: payment.id, unanswered });
    }
  });
}

export function authorizeJob(deps: Deps): JobDefinition<AuthorizeJob> {
  return {
    name: AUTHORIZE_JOB,
    retryLimit: AUTHORIZE_RETRY_LIMIT,
    async handle(job, meta) {
      const payment = await read(deps, job.paymentId);
      // Run again after the hold committed (the worker died, or the capture failed and pg-boss
      // retries): the settle step this job took on is still to do. Settling twice is harmless
      // (the capture is keyed, the move to `paid` made once), should a settle job also run.
      if (payment?.status === "hold" && settlesWithAuthorization(payment)) return settle(deps, payment);
      if (payment?.status !== "pending" || payment.authState !== "requested") return;
      let intent: ProviderIntent;
      try {
        intent = await authorizeAtProvider(deps, payment, job);
      } catch (error) {
        if (meta.retryCount < AUTHORIZE_RETRY_LIMIT) throw error;
        return gaveUpAuthorizing(deps, job, error);
      }
      const hold = () => applyIntent(deps, payment.id, intent, job.actor, 0, payment);
      // Held, with nothing to happen before the capture: captured and paid, the row written once.
      const authorised =
        intent.status === "requires_capture" || (intent.status === "succeeded" && payment.method === "card");
      const settlesNow = authorised && settlesWithAuthorization(payment);
      if (settlesNow && (await paidOnAuthorization(deps, payment, intent, job, hold))) return;
      const held = await hold();
      if (held) await settle(deps, held);
    },
  };
}

/**
 * Reads the intent again: after a 3-D Secure step, while a bank debit is processing, and after a
 * bank debit was collected, in case its bank returns it (returns.ts).
 */
export function syncJob(deps: Deps): JobDefinition<PaymentJob> {
  return {
    name: SYNC_JOB,
    async handle({ paymentId, polls, watch }) {
      const payment = await read(deps, paymentId);
      if (!payment?.intentId) return;
      const provider = deps.paymentProviders.byId(payment.providerId as "sandbox" | "stripe");
      if (payment.status === "pending") {
        await applyIntent(deps, paymentId, await provider.getIntent(payment.intentId), SYSTEM, polls ?? 900);
        return;
      }
      if (!isCollectedDebit(payment)) return;
      const returned = returnOf(await provider.getIntent(payment.intentId));
      await deps.db.transaction(async (tx) => {
        if (returned) await applyReturn(deps, tx, paymentId, returned, SYSTEM);
        // Woken by a webhook (no `watch`): the watch already under way goes on by itself.
        else if (watch !== undefined) await watchForReturn(deps, tx, paymentId, watch + 1);
      });
    },
  };
}
