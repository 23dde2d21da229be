import type { Payment } from "@payments-backend/sdk";
import type { Tone } from "./tone.tsx";

export type PaymentStatus = Payment["status"];

/** Every status, in the order a payment meets them (docs/payments.md, "States"). */
export const STATUSES: readonly PaymentStatus[] = Object.freeze([
  "pending",
  "hold",
  "paid",
  "failed",
  "failed-captured",
  "failed-transfers",
  "refunded",
  "cancelled",
]);

export const STATUS_TONES: Readonly<Record<PaymentStatus, Tone>> = Object.freeze({
  pending: "warning",
  hold: "info",
  paid: "success",
  failed: "danger",
  "failed-captured": "danger",
  "failed-transfers": "danger",
  refunded: "neutral",
  cancelled: "neutral",
});

/**
 * What the app may do to a payment in each status (the API answers 409 otherwise); `cancelable`
 * narrows Cancel further (PaymentActions).
 */
export const ACTIONS = Object.freeze({
  cancel: new Set<PaymentStatus>(["pending", "hold"]),
  refund: new Set<PaymentStatus>(["paid", "failed-captured", "failed-transfers"]),
  // `failed` only when the chain refused the call (PaymentActions checks the error says so).
  retry: new Set<PaymentStatus>(["failed", "failed-captured", "failed-transfers"]),
});

/**
 * Whether the payment may still change without anyone acting: jobs move pending and held
 * payments on, and a contract call gathers confirmations until it is confirmed.
 */
export function isMoving(payment: Payment): boolean {
  if (payment.status === "pending" || payment.status === "hold") return true;
  return payment.transaction_id !== null && !payment.confirmation_status.confirmed;
}
