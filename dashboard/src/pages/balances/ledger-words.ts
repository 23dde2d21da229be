import type { Schemas } from "@payments-backend/sdk";
import type { Tone } from "../payments/tone.tsx";

export type BalanceTransaction = Schemas["BalanceTransaction"];

// The books' machine names (docs/ledger.md) in the words an app owner reads them in.

export type LedgerType = BalanceTransaction["type"];

export const LEDGER_TYPES: readonly LedgerType[] = Object.freeze([
  "hold",
  "capture",
  "void",
  "refund",
  "refund_settled",
  "transfer",
  "transfer_reversal",
  "bank_return",
  "payout_moved",
]);

export const TYPE_WORDS: Readonly<Record<LedgerType, string>> = Object.freeze({
  hold: "Card hold",
  capture: "Capture",
  void: "Hold released",
  refund: "Refund",
  refund_settled: "Refund made",
  transfer: "Seller transfer",
  transfer_reversal: "Transfer reversal",
  bank_return: "Bank return",
  payout_moved: "Payout moved to another seller",
});

/** Money coming in reads as success, money going back as a warning, movements inside as info. */
export const TYPE_TONES: Readonly<Record<LedgerType, Tone>> = Object.freeze({
  hold: "info",
  capture: "success",
  void: "neutral",
  refund: "warning",
  refund_settled: "warning",
  transfer: "info",
  transfer_reversal: "warning",
  bank_return: "danger",
  payout_moved: "info",
});

const ACCOUNT_WORDS: Readonly<Record<string, string>> = Object.freeze({
  shoppers: "Shoppers",
  shopper_funds_held: "Held on cards",
  provider_fees: "Provider fees",
  platform_share: "Platform share",
  app_share: "App share (available)",
  provider_clearing: "Refunds in flight",
  refunds: "Refunded to shoppers",
});

/** `seller_payable:kyc_…` -> "Owed to seller kyc_…"; the plain accounts by their table's name. */
export function accountWords(account: string): string {
  const [name, seller] = account.split(":", 2);
  if (name === "seller_payable") return `Owed to seller ${seller}`;
  if (name === "seller_paid") return `Paid to seller ${seller}`;
  return ACCOUNT_WORDS[account] ?? account;
}
