// Compensation step, release-hold: gives back what authorize secured, nothing charged.
//
// What it does: cancels the payment's provider intent (`payments.release-hold`), releasing a card
// hold, or an intent that was never confirmed. It is asked for by the moves that end a payment
// before capture: the cancel of a hold (commands.ts), an expired pending payment (expire.ts), a
// price that expired before the confirm (authorize.ts), a contract call that failed
// (`chainFailed`, execute-call.ts), and the authorize job that gave up on a card, which may have
// left a hold or a capture it never recorded (`releaseUnanswered`: released, or refunded). An
// intent charged meanwhile, unrecorded (a card charged at once), is refunded. It moves no status
// itself: the move that asks for it did.
// Compensation: none; it is the compensation of open and authorize.
// After a crash: the job is committed in the same transaction as the move that asks for it, so
// that move always has its release coming. The release is keyed (`<payment>:release`, or
// `<payment>:release:<intent>` for an intent the payment has since replaced), so a retried job is
// answered by the provider without a second call taking effect.
import type { Deps } from "../../../deps.ts";
import { AppError } from "../../../platform/http/errors.ts";
import type { JobDefinition } from "../../../platform/jobs/index.ts";
import type { PaymentProvider, ProviderIntent } from "../../../platform/providers/payments/types.ts";
import { intentKey, type PaymentJob, RELEASE_HOLD_JOB } from "../job-names.ts";
import type { PaymentRow } from "../lifecycle.ts";
import { read } from "../rows.ts";

/**
 * What a card's authorize job left at the provider when it gave up (pipeline/authorize.ts): the
 * intents the provider holds for the payment, found by its id in their metadata without making
 * anything (an earlier try's call whose answer was lost, a capture made right before its worker
 * died). Captured is refunded in full, anything else not yet cancelled is released. None of it was
 * recorded as held or captured: the payment stays `failed` and the books post nothing. Keyed by
 * the intent, as every call here.
 */
async function releaseUnanswered(deps: Deps, payment: PaymentRow) {
  const provider = deps.paymentProviders.byId(payment.providerId as "sandbox" | "stripe");
  for (const intent of await provider.intentsOfPayment(payment.id)) {
    await giveBack(provider, payment, intent, `${payment.id}:release:${intent.id}`);
  }
}

/**
 * Undoes what `intent`, as the provider has it now, holds of a payment that recorded no capture: a
 * charge refunded in full, anything else not yet cancelled released (under `releaseKey`), a
 * cancelled one left alone. Refunds are keyed by the intent, so a retried job refunds once.
 */
async function giveBack(
  provider: PaymentProvider,
  payment: PaymentRow,
  intent: ProviderIntent,
  releaseKey: string,
) {
  if (intent.status === "canceled") return;
  if (intent.status === "succeeded") {
    if (intent.amountReceived === 0n) return;
    await provider.refund({ intentId: intent.id }, { idempotencyKey: `${payment.id}:refund:${intent.id}` });
    return;
  }
  await provider.cancelIntent(intent.id, { idempotencyKey: releaseKey });
}

export function releaseHoldJob(deps: Deps): JobDefinition<PaymentJob> {
  return {
    name: RELEASE_HOLD_JOB,
    async handle({ paymentId, intentId, unanswered }) {
      const payment = await read(deps, paymentId);
      if (payment && unanswered) return releaseUnanswered(deps, payment);
      const intent = intentId ?? payment?.intentId;
      if (!payment || !intent) return;
      const provider = deps.paymentProviders.byId(payment.providerId as "sandbox" | "stripe");
      const idempotencyKey =
        intentId && intentId !== payment.intentId
          ? `${payment.id}:release:${intentId}`
          : intentKey(payment, "release");
      try {
        await provider.cancelIntent(intent, { idempotencyKey });
      } catch (error) {
        // No longer cancelable: charged meanwhile, the charge never recorded (a card charged at
        // once whose 3-D Secure step was passed as its payment expired), given back instead; or
        // cancelled already. Any other state, or a recorded capture, keeps the provider's refusal.
        if (!(error instanceof AppError) || error.code !== "invalid_state_transition") throw error;
        const current = await provider.getIntent(intent);
        const undoable = current.status === "canceled" || current.status === "succeeded";
        if (!undoable || payment.capturedAmount > 0n) throw error;
        await giveBack(provider, payment, current, idempotencyKey);
      }
    },
  };
}
