// Step 1, open: a `pending` payment and its provider intent.
//
// What it does: `openPayment` (create.ts) writes the payment, its first payment event, its webhook
// and its `payments.prepare-intent` job in one statement; that job makes the provider intent
// (`ensureIntent`). `reopen` opens a payment again (`failed -> pending`) when the app retries a card
// payment whose contract call the chain refused, with a new intent under keys of its own.
// Compensation: release-hold. A pending payment that expires (expire.ts), or whose price expired
// before its confirm (authorize.ts), has its intent released by that job; nothing was held or
// charged. One cancelled before any confirm leaves an intent that holds nothing.
// After a crash: the payment and its job are one statement's (through the job outbox), so both
// exist or neither. The intent is created under the key `<payment>:intent` (`:r<round>` after a
// reopen), so a retried job, or the authorize job getting there first, is answered the same intent
// and never makes a second; its id is stored only while none is. A reopen's move and its job commit
// together.
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Deps } from "../../../deps.ts";
import { type Database, prepared, type Tx } from "../../../platform/db/index.ts";
import type { JobDefinition } from "../../../platform/jobs/index.ts";
import { intentKey, type PaymentJob, PREPARE_INTENT_JOB } from "../job-names.ts";
import { type PaymentRow, transition } from "../lifecycle.ts";
import { read } from "../rows.ts";
import { payments } from "../tables.ts";

export { openPayment } from "../create.ts";

// Every new payment gets its intent id: prepared.
const setIntentId = (db: Database) =>
  db
    .update(payments)
    .set({ intentId: sql`${sql.placeholder("intent_id")}::text` })
    .where(and(eq(payments.id, sql.placeholder("id")), isNull(payments.intentId)))
    .prepare("payment_set_intent_id");

/**
 * The payment's provider intent, made once: the prepare job and the authorize job may both get
 * here first, and the shared idempotency key makes the provider answer both with the same intent.
 */
export async function ensureIntent(deps: Deps, payment: PaymentRow): Promise<string> {
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

export function prepareIntentJob(deps: Deps): JobDefinition<PaymentJob> {
  return {
    name: PREPARE_INTENT_JOB,
    async handle({ paymentId }) {
      const payment = await read(deps, paymentId);
      if (payment?.status === "pending") await ensureIntent(deps, payment);
    },
  };
}

/**
 * `retry` of a card payment whose contract call the chain refused: its hold was released, so
 * nothing can be captured; the payment is reopened (`pending`, a new provider intent) for the app
 * or the shopper to confirm again, and then runs the call afresh.
 */
export async function reopen(deps: Deps, tx: Tx, payment: PaymentRow, actor: string) {
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
