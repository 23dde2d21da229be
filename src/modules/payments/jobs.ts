import { and, eq, isNull, sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { type Database, prepared, type Tx } from "../../platform/db/index.ts";
import { crashPoint } from "../../platform/jobs/faults.ts";
import type { JobDefinition } from "../../platform/jobs/index.ts";
import { PaymentDeclinedError, type ProviderIntent } from "../../platform/providers/payments/types.ts";
import { followChainCall, runChainStep } from "./chain-step.ts";
import {
  AUTHORIZE_JOB,
  type AuthorizeJob,
  CONFIRMATIONS_JOB,
  EXECUTE_JOB,
  type PaymentJob,
  PREPARE_INTENT_JOB,
  REFUND_JOB,
  RELEASE_HOLD_JOB,
  SETTLE_JOB,
  SYNC_JOB,
} from "./job-names.ts";
import { type PaymentRow, transition } from "./lifecycle.ts";
import { payments } from "./tables.ts";
import { plannedTransfers } from "./transfers.ts";

const SYSTEM = "system";

async function locked(tx: Tx, paymentId: string) {
  const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for("update");
  return row as PaymentRow | undefined;
}

// Every job reads its payment first, and every new payment gets its intent id: both prepared.
const paymentById = (db: Database) =>
  db
    .select()
    .from(payments)
    .where(eq(payments.id, sql.placeholder("id")))
    .prepare("payment_by_id");
const setIntentId = (db: Database) =>
  db
    .update(payments)
    .set({ intentId: sql`${sql.placeholder("intent_id")}::text` })
    .where(and(eq(payments.id, sql.placeholder("id")), isNull(payments.intentId)))
    .prepare("payment_set_intent_id");

async function read(deps: Deps, paymentId: string) {
  const [row] = await prepared(deps.db, "payment_by_id", paymentById).execute({ id: paymentId });
  return row as PaymentRow | undefined;
}

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
        if (!payment.deferExecution) await deps.jobs.send<PaymentJob>(tx, EXECUTE_JOB, { paymentId });
        else await deps.onDeferredPayment?.(tx, held);
        return;
      }
      case "processing":
        // A bank debit on its way: look again shortly (the provider's webhook may come first).
        await tx.update(payments).set({ authState: "done" }).where(eq(payments.id, paymentId));
        await lookAgain(tx);
        return;
      case "canceled":
      case "requires_payment_method": {
        const error = intent.lastError;
        const failed = await transition(deps, tx, payment, "failed", {
          actor,
          reason: error?.message ?? "the provider refused the payment",
          set: {
            authState: "done",
            nextAction: null,
            transactionResponse: {
              ...payment.transactionResponse,
              error: {
                code: error?.code ?? "payment_failed",
                decline_code: error?.declineCode ?? null,
                message: error?.message ?? "Payment failed",
              },
            },
          },
        });
        if (payment.deferExecution) await deps.onDeferredPayment?.(tx, failed);
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
    { idempotencyKey: `${payment.id}:intent` },
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

/** Reads the intent again: after a 3-D Secure step, or while a bank debit is processing. */
function syncJob(deps: Deps): JobDefinition<PaymentJob> {
  return {
    name: SYNC_JOB,
    async handle({ paymentId, polls }) {
      const payment = await read(deps, paymentId);
      if (!payment?.intentId || payment.status !== "pending") return;
      const provider = deps.paymentProviders.byId(payment.providerId as "sandbox" | "stripe");
      await applyIntent(deps, paymentId, await provider.getIntent(payment.intentId), SYSTEM, polls ?? 900);
    },
  };
}

/** The money is secured: run the trigger's contract call, or settle at once when there is none. */
function executeJob(deps: Deps): JobDefinition<PaymentJob> {
  return {
    name: EXECUTE_JOB,
    async handle({ paymentId, sending }) {
      const payment = await read(deps, paymentId);
      if (!payment || (payment.status !== "hold" && payment.status !== "failed-captured")) return;
      await runChainStep(deps, payment, sending);
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

/** Captures a held card (bank debits are already collected), transfers the shares, and pays. */
function settleJob(deps: Deps): JobDefinition<PaymentJob> {
  return {
    name: SETTLE_JOB,
    async handle({ paymentId }) {
      const payment = await read(deps, paymentId);
      const settling = ["hold", "failed-transfers", "failed-captured"];
      if (!payment || !settling.includes(payment.status)) return;
      const provider = deps.paymentProviders.byId(payment.providerId as "sandbox" | "stripe");
      let captured = payment.capturedAmount;
      if (captured === 0n && payment.intentId) {
        const intent = await provider.captureIntent(payment.intentId, undefined, {
          idempotencyKey: `${payment.id}:capture`,
        });
        crashPoint("capture-sent");
        captured = intent.amountReceived;
        await deps.db.update(payments).set({ capturedAmount: captured }).where(eq(payments.id, payment.id));
      }
      const done = { ...payment.transfers };
      let failure: string | undefined;
      for (const transfer of await plannedTransfers(deps, payment)) {
        if (done[transfer.key]) continue;
        try {
          const made = await provider.transfer(
            {
              amount: transfer.amount,
              currency: payment.chargeCurrency,
              destination: transfer.destination,
              sourceIntentId: payment.intentId ?? undefined,
              transferGroup: payment.id,
              metadata: { payment_id: payment.id, share: transfer.key },
            },
            { idempotencyKey: `${payment.id}:transfer:${transfer.key}` },
          );
          crashPoint("transfer-sent");
          done[transfer.key] = made.id;
          await deps.db.update(payments).set({ transfers: done }).where(eq(payments.id, payment.id));
        } catch (error) {
          failure = error instanceof Error ? error.message : String(error);
          break;
        }
      }
      await deps.db.transaction(async (tx) => {
        const current = await locked(tx, paymentId);
        if (!current || !settling.includes(current.status)) return;
        if (failure) {
          if (current.status !== "failed-transfers") {
            // The charge is captured (paid); only the shares are missing (failed-transfers).
            const paid = await transition(deps, tx, current, "paid", { actor: SYSTEM, reason: "captured" });
            await transition(deps, tx, paid, "failed-transfers", {
              actor: SYSTEM,
              reason: `transfer failed: ${failure}`,
            });
          }
          // Retried later by this same job, with backoff; the retry endpoint can hurry it.
          await deps.jobs.send<PaymentJob>(tx, SETTLE_JOB, { paymentId }, { startAfter: 60 });
          return;
        }
        await transition(deps, tx, current, "paid", { actor: SYSTEM, reason: "captured and transferred" });
      });
    },
  };
}

function releaseHoldJob(deps: Deps): JobDefinition<PaymentJob> {
  return {
    name: RELEASE_HOLD_JOB,
    async handle({ paymentId }) {
      const payment = await read(deps, paymentId);
      if (!payment?.intentId) return;
      const provider = deps.paymentProviders.byId(payment.providerId as "sandbox" | "stripe");
      await provider.cancelIntent(payment.intentId, { idempotencyKey: `${payment.id}:release` });
    },
  };
}

function refundJob(deps: Deps): JobDefinition<PaymentJob> {
  return {
    name: REFUND_JOB,
    async handle({ paymentId }) {
      const payment = await read(deps, paymentId);
      if (!payment?.intentId) return;
      const provider = deps.paymentProviders.byId(payment.providerId as "sandbox" | "stripe");
      const refund = await provider.refund(
        { intentId: payment.intentId },
        { idempotencyKey: `${payment.id}:refund` },
      );
      await deps.db
        .update(payments)
        .set({ refundedAmount: refund.amount })
        .where(eq(payments.id, payment.id));
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
    refundJob(deps),
  ] as JobDefinition<never>[];
}
