import type { PaymentMethodInput } from "../../platform/providers/payments/types.ts";

// The payment pipeline, one job a step; each is idempotent and keyed by the payment id.
/**
 * Made a new payment's provider intent until the confirm's job made it instead (2026-11-30): kept so
 * that jobs queued before that still run (docs/decisions.md, "The provider intent, made at the confirm").
 */
export const PREPARE_INTENT_JOB = "payments.prepare-intent";
export const AUTHORIZE_JOB = "payments.authorize";
export const SYNC_JOB = "payments.sync";
export const EXECUTE_JOB = "payments.execute";
export const CONFIRMATIONS_JOB = "payments.confirmations";
export const SETTLE_JOB = "payments.settle";
export const RELEASE_HOLD_JOB = "payments.release-hold";
export const REFUND_JOB = "payments.refund";
export const REVERSE_TRANSFERS_JOB = "payments.reverse-transfers";

/**
 * The idempotency key of a provider call on the payment's current intent: `<payment>:<call>`, with
 * the intent's round when `retry` reopened the payment (a new intent needs keys of its own).
 */
export function intentKey(payment: { id: string; intentRound: number }, call: string): string {
  return payment.intentRound === 0
    ? `${payment.id}:${call}`
    : `${payment.id}:${call}:r${payment.intentRound}`;
}

export interface AuthorizeJob {
  paymentId: string;
  attempt: number;
  /** Always a payment method id: card and account numbers are never queued (payment-methods.ts). */
  method: Extract<PaymentMethodInput, { type: "token" }>;
  returnUrl: string | null;
  mandate: { ipAddress: string; userAgent: string };
  actor: string;
}

export interface PaymentJob {
  paymentId: string;
  retry?: boolean;
  /** Sync job: how many times it looked already (absent: woken by a webhook, no further polling). */
  polls?: number;
  /** Sync job of a collected bank debit: which look for a return this is (returns.ts). */
  watch?: number;
  /**
   * Release job: the intent whose hold to release, when the payment may get another one before the
   * job runs (`retry` reopens a payment whose contract call was refused); absent: the payment's own.
   */
  intentId?: string;
  /**
   * Release job after the authorize job gave up on a card: every intent the provider holds for the
   * payment is released (or refunded), an earlier try's whose answer was lost included
   * (release-hold.ts).
   */
  unanswered?: boolean;
  /** Execute job: which sending of the contract call this is (absent: the first). */
  sending?: number;
  /** Settle job: which try at the transfers this is after a transient failure (absent: the first). */
  attempt?: number;
  /**
   * Settle job: the `retry_at` the failure that scheduled this try announced. A try that finds
   * another one there was overtaken (by the app's `retry`, or a newer failure) and does nothing.
   */
  retryAt?: string;
}
