import type { Deps } from "../../deps.ts";
import { PaymentDeclinedError, type ProviderIntent } from "../../platform/providers/payments/types.ts";
import type { AuthorizeJob } from "./job-names.ts";
import type { PaymentRow } from "./lifecycle.ts";
import { intentInput, requestIntent } from "./pipeline/open.ts";

// The authorize step's provider call (pipeline/authorize.ts): the intent made and confirmed, keyed
// by the confirm's attempt, and a decline as the intent it leaves.

/** A decline as the intent it leaves: wanting a payment method, with the decline as its error. */
function declined(intent: ProviderIntent, error: PaymentDeclinedError): ProviderIntent {
  const lastError = intent.lastError ?? {
    code: "card_declined",
    declineCode: error.declineCode,
    message: error.message,
  };
  const waits = intent.status === "requires_payment_method" || intent.status === "canceled";
  return { ...intent, lastError, status: waits ? intent.status : "requires_payment_method" };
}

/**
 * The provider's answer to the job's confirm, a decline included. A payment's first intent is made
 * and confirmed in one call where the provider can (its own key); its id is stored with the answer
 * (`applyIntent`), which also moves the payment on, so a retry that still finds no intent is
 * answered the same intent and outcome. Otherwise the intent is made (`requestIntent`, keyed, its id
 * stored the same way) and confirmed. A decline of the one call that does not name the intent it
 * made goes the two-call way: a declined card held nothing, and those calls have keys of their own,
 * so a retry goes the same way and is answered the same.
 */
export async function authorizeAtProvider(deps: Deps, payment: PaymentRow, job: AuthorizeJob) {
  const provider = deps.paymentProviders.byId(payment.providerId as "sandbox" | "stripe");
  const confirm = { paymentMethod: job.method, returnUrl: job.returnUrl ?? undefined, mandate: job.mandate };
  if (!payment.intentId && provider.createAndConfirmIntent) {
    try {
      return await provider.createAndConfirmIntent(intentInput(payment), confirm, {
        idempotencyKey: `${payment.id}:create-confirm:${job.attempt}`,
      });
    } catch (error) {
      if (!(error instanceof PaymentDeclinedError)) throw error;
      if (error.intent) return declined(error.intent, error);
    }
  }
  const intentId = payment.intentId ?? (await requestIntent(deps, payment));
  try {
    return await provider.confirmIntent(intentId, confirm, {
      idempotencyKey: `${payment.id}:confirm:${job.attempt}`,
    });
  } catch (error) {
    if (!(error instanceof PaymentDeclinedError)) throw error;
    return declined(error.intent ?? (await provider.getIntent(intentId)), error);
  }
}
