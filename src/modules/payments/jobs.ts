import { and, eq, isNull, sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { type Database, prepared, type Tx } from "../../platform/db/index.ts";
import type { JobDefinition } from "../../platform/jobs/index.ts";
import { PaymentDeclinedError, type ProviderIntent } from "../../platform/providers/payments/types.ts";
import { EXECUTE_RETRY_LIMIT, followChainCall, runChainStep } from "./chain-step.ts";
import { keepOpenForNextMethod, withDecline } from "./checkout-tries.ts";
import { expirePendingJob } from "./expire.ts";
import {
  AUTHORIZE_JOB,
  type AuthorizeJob,
  CONFIRMATIONS_JOB,
  EXECUTE_JOB,
  intentKey,
  type PaymentJob,
  PREPARE_INTENT_JOB,
  RELEASE_HOLD_JOB,
  SETTLE_JOB,
  SYNC_JOB,
} from "./job-names.ts";
import { type PaymentRow, transition } from "./lifecycle.ts";
import { refundJobs } from "./refunds.ts";
import { applyReturn, isCollectedDebit, returnOf, watchForReturn } from "./returns.ts";
import { locked, read } from "./rows.ts";
import { settleJob } from "./settle.ts";
import { payments } from "./tables.ts";

const SYSTEM = "system";

// Every new payment gets its intent id: prepared.
const setIntentId = (db: Database) =>
  db
    .update(payments)
    .set({ intentId: sql`${sql.placeholder("intent_id")}::text` })
    .where(and(eq(payments.id, sql.placeholder("id")), isNull(payments.intentId)))
    .prepare("payment_set_intent_id");

/**
 * Applies what the provider says of an intent to a payment that is still waiting for its
 * authorisation. Only a pending payment moves here, so a late or repeated event (a webhook after
 * the job already applied the answer) cannot move a payment backwards.
 */
export async function applyIntent(
  deps: Deps,
  paymentId: string,
  intent: ProviderIntent,
  actor: string,
  polls = 0,
) {
  // While the shopper completes a 3-D Secure step or a bank debit clears, look again every few
  // seconds for half an hour: the provider's webhook usually comes first, this is the backstop.
  const lookAgain = (tx: Tx) =>
    polls < 900
      ? deps.jobs.send<PaymentJob>(tx, SYNC_JOB, { paymentId, polls: polls + 1 }, { startAfter: 2 })
      : null;
  await deps.db.transaction(async (tx) => {
    const payment = await locked(tx, paymentId);
    if (payment?.status !== "pending") return;
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
          reason: intent.status === "succeeded" ? "bank debit collected" : "card authorised",
          set: {
            authState: "done",
            nextAction: null,
            capturedAmount: intent.status === "succeeded" ? intent.amountReceived : 0n,
          },
        });
        // A deferred payment (an auction bid) waits: `transition` told its owner it is held. Without
        // a contract call, the execute step would only ask for the settle job: ask for it here, in
        // the transaction that records the hold, and save the payment a job.
        if (!payment.deferExecution) {
          const next = payment.triggerId ? EXECUTE_JOB : SETTLE_JOB;
          await deps.jobs.send<PaymentJob>(tx, next, { paymentId });
        }
        // A collected debit can still come back from the shopper's bank: keep an eye on it.
        if (isCollectedDebit(held)) await watchForReturn(deps, tx, paymentId);
        return;
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

/**
 * The payment's provider intent, made once: the prepare job and the authorize job may both get
 * here first, and the shared idempotency key makes the provider answer both with the same intent.
 */
async function ensureIntent(deps: Deps, payment: PaymentRow): Promise<string> {
  if (payment.intentId) return payment.intentId;
  const provider = deps.paymentProviders.byId(payment.providerId as "sandbox" | "stripe");
  const intent = await provider.createIntent(
    {
      amount: payment.chargeAmount,
      currency: payment.chargeCurrency,
      method: payment.method as "card" | "us_bank_account",
      description: `Payment ${payment.id}`,
      metadata: { payment_id: payment.id, app_id: payment.appId },
      transferGroup: payment.id,
    },
    { idempotencyKey: intentKey(payment, "intent") },
  );
  await prepared(deps.db, "payment_set_intent_id", setIntentId).execute({
    intent_id: intent.id,
    id: payment.id,
  });
  return intent.id;
}

function prepareIntentJob(deps: Deps): JobDefinition<PaymentJob> {
  return {
    name: PREPARE_INTENT_JOB,
    async handle({ paymentId }) {
      const payment = await read(deps, paymentId);
      if (payment?.status === "pending") await ensureIntent(deps, payment);
    },
  };
}

function authorizeJob(deps: Deps): JobDefinition<AuthorizeJob> {
  return {
    name: AUTHORIZE_JOB,
    async handle(job) {
      const payment = await read(deps, job.paymentId);
      if (payment?.status !== "pending" || payment.authState !== "requested") return;
      const provider = deps.paymentProviders.byId(payment.providerId as "sandbox" | "stripe");
      const intentId = await ensureIntent(deps, payment);
      let intent: ProviderIntent;
      try {
        intent = await provider.confirmIntent(
          intentId,
          { paymentMethod: job.method, returnUrl: job.returnUrl ?? undefined, mandate: job.mandate },
          { idempotencyKey: `${payment.id}:confirm:${job.attempt}` },
        );
      } catch (error) {
        if (!(error instanceof PaymentDeclinedError)) throw error;
        intent = error.intent ?? {
          ...(await provider.getIntent(intentId)),
          status: "requires_payment_method",
          lastError: { code: "card_declined", declineCode: error.declineCode, message: error.message },
        };
        if (!intent.lastError) {
          intent = {
            ...intent,
            lastError: { code: "card_declined", declineCode: error.declineCode, message: error.message },
          };
        }
        if (intent.status !== "requires_payment_method" && intent.status !== "canceled") {
          intent = { ...intent, status: "requires_payment_method" };
        }
      }
      await applyIntent(deps, payment.id, intent, job.actor);
    },
  };
}

/**
 * Reads the intent again: after a 3-D Secure step, while a bank debit is processing, and after a
 * bank debit was collected, in case its bank returns it (returns.ts).
 */
function syncJob(deps: Deps): JobDefinition<PaymentJob> {
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

/** The money is secured: run the trigger's contract call, or settle at once when there is none. */
function executeJob(deps: Deps): JobDefinition<PaymentJob> {
  return {
    name: EXECUTE_JOB,
    retryLimit: EXECUTE_RETRY_LIMIT,
    async handle({ paymentId, sending }, meta) {
      const payment = await read(deps, paymentId);
      if (!payment || (payment.status !== "hold" && payment.status !== "failed-captured")) return;
      await runChainStep(deps, payment, sending, meta.retryCount >= EXECUTE_RETRY_LIMIT);
    },
  };
}

function confirmationsJob(deps: Deps): JobDefinition<PaymentJob> {
  return {
    name: CONFIRMATIONS_JOB,
    async handle({ paymentId }) {
      const payment = await read(deps, paymentId);
      if (!payment || (payment.status !== "hold" && payment.status !== "failed-captured")) return;
      await followChainCall(deps, payment);
    },
  };
}

function releaseHoldJob(deps: Deps): JobDefinition<PaymentJob> {
  return {
    name: RELEASE_HOLD_JOB,
    async handle({ paymentId, intentId }) {
      const payment = await read(deps, paymentId);
      const intent = intentId ?? payment?.intentId;
      if (!payment || !intent) return;
      const provider = deps.paymentProviders.byId(payment.providerId as "sandbox" | "stripe");
      const idempotencyKey =
        intentId && intentId !== payment.intentId
          ? `${payment.id}:release:${intentId}`
          : intentKey(payment, "release");
      await provider.cancelIntent(intent, { idempotencyKey });
    },
  };
}

export function paymentJobs(deps: Deps): JobDefinition<never>[] {
  return [
    prepareIntentJob(deps),
    authorizeJob(deps),
    syncJob(deps),
    executeJob(deps),
    confirmationsJob(deps),
    settleJob(deps),
    releaseHoldJob(deps),
    ...refundJobs(deps),
    expirePendingJob(deps),
  ] as JobDefinition<never>[];
}
