import type { PaymentMethodInput } from "../../platform/providers/payments/types.ts";

// The payment pipeline, one job a step; each is idempotent and keyed by the payment id.
export const PREPARE_INTENT_JOB = "payments.prepare-intent";
export const AUTHORIZE_JOB = "payments.authorize";
export const SYNC_JOB = "payments.sync";
export const EXECUTE_JOB = "payments.execute";
export const CONFIRMATIONS_JOB = "payments.confirmations";
export const SETTLE_JOB = "payments.settle";
export const RELEASE_HOLD_JOB = "payments.release-hold";
export const REFUND_JOB = "payments.refund";

export interface AuthorizeJob {
  paymentId: string;
  attempt: number;
  /** Sandbox test cards or a provider token: never a real card number (refused in live mode). */
  method: PaymentMethodInput;
  returnUrl: string | null;
  mandate: { ipAddress: string; userAgent: string };
  actor: string;
}

export interface PaymentJob {
  paymentId: string;
  retry?: boolean;
  /** Sync job: how many times it looked already (absent: woken by a webhook, no further polling). */
  polls?: number;
  /** Execute job: which sending of the contract call this is (absent: the first). */
  sending?: number;
}
