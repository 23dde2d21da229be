import type { Deps } from "../../deps.ts";
import { type PaymentJob, SETTLE_JOB } from "./job-names.ts";
import type { PaymentRow } from "./lifecycle.ts";

/** Sends the trigger's contract call, or, for a price without a trigger, settles at once. */
export async function runChainStep(deps: Deps, payment: PaymentRow): Promise<void> {
  if (!payment.triggerId) {
    await deps.db.transaction(async (tx) => {
      await deps.jobs.send<PaymentJob>(tx, SETTLE_JOB, { paymentId: payment.id });
    });
    return;
  }
  throw new Error("chain calls are wired when the chain adapters land");
}

export async function followChainCall(_deps: Deps, _payment: PaymentRow): Promise<void> {}
