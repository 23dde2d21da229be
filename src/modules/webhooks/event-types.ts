/**
 * The events apps can subscribe to. `payment.<status>` is emitted on every payment status change
 * (docs/payments.md, "States"), so `payment.*` follows a payment through its whole life.
 */
export const EVENT_TYPES = Object.freeze([
  "payment.pending",
  "payment.hold",
  "payment.paid",
  "payment.failed",
  "payment.cancelled",
  "payment.failed-captured",
  "payment.refunded",
  "payment.failed-transfers",
  "kyc.updated",
  "auction.bid_placed",
  "auction.outbid",
  "auction.ended",
  "auction.bid_expired",
  "auction.winner_changed",
  "wallet.balance_low",
  "reconciliation.mismatch",
] as const);

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The event `POST /webhooks/{app_id}/{id}/test` sends to one endpoint on request. Not a type
 * endpoints subscribe to (nothing in the service emits it), so `*` never brings one unasked.
 */
export const TEST_EVENT_TYPE = "webhook.test";

const PREFIXES = new Set(EVENT_TYPES.map((type) => type.split(".")[0]));

/** A subscription is an event type, `<prefix>.*` for a whole family, or `*` for everything. */
export function isKnownPattern(pattern: string): boolean {
  if (pattern === "*") return true;
  if (pattern.endsWith(".*")) return PREFIXES.has(pattern.slice(0, -2));
  return (EVENT_TYPES as readonly string[]).includes(pattern);
}

export function matches(patterns: readonly string[], type: string): boolean {
  return patterns.some(
    (pattern) =>
      pattern === "*" ||
      pattern === type ||
      (pattern.endsWith(".*") && type.startsWith(pattern.slice(0, -1))),
  );
}
