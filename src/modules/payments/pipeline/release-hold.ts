// Compensation step, release-hold: gives back what authorize secured, nothing charged.
//
// What it does: cancels the payment's provider intent (`payments.release-hold`), releasing a card
// hold, or an intent that was never confirmed. It is asked for by the moves that end a payment
// before capture: the cancel of a hold (commands.ts), an expired pending payment (expire.ts), a
// price that expired before the confirm (authorize.ts), a contract call that failed
// (`chainFailed`, execute-call.ts). It moves no status itself: the move that asks for it did.
// Compensation: none; it is the compensation of open and authorize.
// After a crash: the job is committed in the same transaction as the move that asks for it, so
// that move always has its release coming. The release is keyed (`<payment>:release`, or
// `<payment>:release:<intent>` for an intent the payment has since replaced), so a retried job is
// answered by the provider without a second call taking effect.
import type { Deps } from "../../../deps.ts";
import type { JobDefinition } from "../../../platform/jobs/index.ts";
import { intentKey, type PaymentJob, RELEASE_HOLD_JOB } from "../job-names.ts";
import { read } from "../rows.ts";

export function releaseHoldJob(deps: Deps): JobDefinition<PaymentJob> {
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
