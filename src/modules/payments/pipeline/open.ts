// Step 1, open: a `pending` payment, and its provider intent when it is first confirmed.
//
// What it does: `openPayment` (create.ts) writes the payment, its first payment event and its
// webhook in one statement; no provider is called and no job is queued (unless a webhook endpoint
// listens). The authorize job makes the provider intent when it confirms it (with the confirm in
// one call where the provider can, authorize.ts; else `requestIntent` just before), so a payment
// never confirmed has no intent at all. `reopen` opens a payment again
// (`failed -> pending`) when the app retries a card payment whose contract call the chain refused;
// its next confirm makes a new intent under keys of its own. `payments.prepare-intent` is only run
// for jobs queued before the intent was made at the confirm (job-names.ts).
// Compensation: release-hold. A pending payment that expires (expire.ts), or whose price expired
// before its confirm (authorize.ts), has its intent, if it has one (a declined try on the hosted
// checkout), released by that job; nothing was held or charged.
// After a crash: the payment is one statement. The intent is created under the key
// `<payment>:intent` (`:r<round>` after a reopen), so a retried authorize job is answered the same
// intent and never makes a second; its id is stored with the answer to the confirm (authorize.ts,
// `applyIntent`), only while none is. A reopen is one transaction.
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Deps } from "../../../deps.ts";
import { type Database, prepared, type Tx } from "../../../platform/db/index.ts";
import type { JobDefinition } from "../../../platform/jobs/index.ts";
import type { CreateIntentInput } from "../../../platform/providers/payments/types.ts";
import { intentKey, type PaymentJob, PREPARE_INTENT_JOB } from "../job-names.ts";
import { type PaymentRow, transition } from "../lifecycle.ts";
import { read } from "../rows.ts";
import { payments } from "../tables.ts";
import { settlesWithAuthorization } from "./transfer-to-seller.ts";

export { openPayment } from "../create.ts";

// A prepare job's payment gets its intent id: prepared.
const setIntentId = (db: Database) =>
  db
    .update(payments)
    .set({ intentId: sql`${sql.placeholder("intent_id")}::text` })
    .where(and(eq(payments.id, sql.placeholder("id")), isNull(payments.intentId)))
    .prepare("payment_set_intent_id");

/**
 * The payment's provider intent, made once: a retried authorize job (or a prepare job queued before
 * the intent was made at the confirm) asks again, and the shared idempotency key makes the provider
 * answer it with the same intent. Writes nothing: the authorize job stores the id with the
 * provider's answer to its confirm (`applyIntent`), a statement fewer for every payment.
 */
export async function requestIntent(deps: Deps, payment: PaymentRow): Promise<string> {
  const provider = deps.paymentProviders.byId(payment.providerId as "sandbox" | "stripe");
  const intent = await provider.createIntent(intentInput(payment), {
    idempotencyKey: intentKey(payment, "intent"),
  });
  return intent.id;
}

/** The provider intent a payment makes: its charge, and its ids for the provider's dashboard. */
export function intentInput(payment: PaymentRow): CreateIntentInput {
  return {
    amount: payment.chargeAmount,
    currency: payment.chargeCurrency,
    method: payment.method as "card" | "us_bank_account",
    description: `Payment ${payment.id}`,
    metadata: { payment_id: payment.id, app_id: payment.appId },
    transferGroup: payment.id,
    // Nothing between the card's hold and its capture: charged by the authorising call itself.
    chargeAtOnce: payment.method === "card" && settlesWithAuthorization(payment),
  };
}

/** `requestIntent`, its id stored on the payment while it has none (a prepare job's). */
export async function ensureIntent(deps: Deps, payment: PaymentRow): Promise<string> {
  if (payment.intentId) return payment.intentId;
  const intentId = await requestIntent(deps, payment);
  await prepared(deps.db, "payment_set_intent_id", setIntentId).execute({
    intent_id: intentId,
    id: payment.id,
  });
  return intentId;
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
 * nothing can be captured; the payment is reopened (`pending`; its next confirm makes a new provider
 * intent) for the app or the shopper to confirm again, and then runs the call afresh.
 */
export async function reopen(deps: Deps, tx: Tx, payment: PaymentRow, actor: string) {
  return transition(deps, tx, payment, "pending", {
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
}
