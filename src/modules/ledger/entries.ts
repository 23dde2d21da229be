import type { LedgerType } from "./tables.ts";

// What each money event writes: pure functions of the figures a payment fixed when it was made
// (its price_item, in minor units of the charge currency). The ledger knows nothing of payments'
// tables: the payments module passes the figures in (docs/ledger.md).

/** A payment's figures, minor units of `currency` (the charge currency). */
export interface PaymentFigures {
  paymentId: string;
  appId: string;
  currency: string;
  /** What the shopper is charged: price_item.amount_total. */
  total: bigint;
  platform: bigint;
  app: bigint;
  seller: bigint;
  /** The seller's KYC record; none means the app is the seller and keeps the seller share. */
  sellerId: string | null;
}

export type LedgerEvent =
  | { type: "hold" }
  | { type: "capture" }
  | { type: "void" }
  /** Refund number `n` (1 for the first), taking the refunded total from `before` to `after`. */
  | { type: "refund"; n: number; before: bigint; after: bigint }
  /** The provider made refund `n`: the money left its balance for the shopper. */
  | { type: "refund_settled"; n: number; amount: bigint; reference: string | null }
  | { type: "transfer"; key: string; amount: bigint; reference: string }
  | { type: "transfer_reversal"; key: string; amount: bigint; reference: string }
  /** A collected bank debit taken back by the bank: all that was not refunded yet (`refunded`). */
  | { type: "bank_return"; refunded: bigint }
  /**
   * Refund `refund`, which the provider could no longer make because the bank had taken the debit
   * back first: the return gave the shopper `amount`, so it leaves provider_clearing for refunds.
   */
  | { type: "bank_return"; refund: number; amount: bigint }
  /**
   * The payout pointed at another seller (`sellerId` of the figures) after the capture had made the
   * share payable to `from` (null: the app's own share): the share moves with it. `round` is the
   * payment's transfer round after the change, one per change.
   */
  | { type: "payout_moved"; from: string | null; round: number };

export interface LedgerLine {
  transactionId: string;
  line: number;
  appId: string;
  account: string;
  currency: string;
  amount: bigint;
  type: LedgerType;
  paymentId: string;
  reference: string | null;
}

/** The accounts of docs/ledger.md. Seller accounts are per KYC record. */
export const ACCOUNTS = Object.freeze({
  shoppers: "shoppers",
  held: "shopper_funds_held",
  clearing: "provider_clearing",
  fees: "provider_fees",
  platform: "platform_share",
  app: "app_share",
  refunds: "refunds",
  sellerPayable: (kycId: string) => `seller_payable:${kycId}`,
  sellerPaid: (kycId: string) => `seller_paid:${kycId}`,
});

/** The provider's fee: whatever of the charge is nobody's share (price_item.processing_fee_amount). */
export const feeOf = (f: PaymentFigures) => f.total - f.platform - f.app - f.seller;

/** Where the seller share goes: the seller's payable, or the app's own share when the app sells. */
const sellerAccount = (f: Pick<PaymentFigures, "sellerId">) =>
  f.sellerId ? ACCOUNTS.sellerPayable(f.sellerId) : ACCOUNTS.app;

/** `x` x `refunded` / `total`, half-up: a share's part of what has been refunded so far. */
export function portion(x: bigint, refunded: bigint, total: bigint): bigint {
  if (total === 0n) return 0n;
  return (2n * x * refunded + total) / (2n * total);
}

/**
 * What a refund (or a bank return) of the charge from `before` to `after` takes from each share.
 * The provider keeps its fee (as Stripe does), and the platform bears it, as a Stripe Connect
 * platform does: the seller and the app give back their shares in proportion, the platform the
 * rest. Computed on the running totals, so several partial refunds add up to the whole shares
 * exactly. An app that sells (no seller) keeps the seller share, and gives it back the same way.
 */
export function refundParts(f: PaymentFigures, before: bigint, after: bigint) {
  const part = (x: bigint) => portion(x, after, f.total) - portion(x, before, f.total);
  const seller = f.sellerId ? part(f.seller) : 0n;
  const app = f.sellerId ? part(f.app) : part(f.app + f.seller);
  return { seller, app, platform: after - before - seller - app };
}

/** The transaction id of an event: derived from it, so posting it twice posts it once. */
export function transactionIdOf(f: PaymentFigures, event: LedgerEvent): string {
  switch (event.type) {
    case "refund":
    case "refund_settled":
      return `${f.paymentId}:${event.type}:${event.n}`;
    case "payout_moved":
      return `${f.paymentId}:payout_moved:${event.round}`;
    case "bank_return":
      return "refund" in event
        ? `${f.paymentId}:bank_return:refund:${event.refund}`
        : `${f.paymentId}:bank_return`;
    case "transfer":
    case "transfer_reversal":
      return `${f.paymentId}:${event.type}:${event.key}`;
    default:
      return `${f.paymentId}:${event.type}`;
  }
}

/** The entries of one event: one ledger transaction, summing to zero; zero amounts are left out. */
export function ledgerEntriesFor(event: LedgerEvent, f: PaymentFigures): LedgerLine[] {
  const legs: [string, bigint][] = [];
  let reference: string | null = null;
  switch (event.type) {
    case "hold":
      legs.push([ACCOUNTS.shoppers, -f.total], [ACCOUNTS.held, f.total]);
      break;
    case "void":
      legs.push([ACCOUNTS.held, -f.total], [ACCOUNTS.shoppers, f.total]);
      break;
    case "capture":
      legs.push(
        [ACCOUNTS.held, -f.total],
        [ACCOUNTS.fees, feeOf(f)],
        [ACCOUNTS.platform, f.platform],
        [ACCOUNTS.app, f.app],
        [sellerAccount(f), f.seller],
      );
      break;
    case "refund":
    case "bank_return": {
      if ("refund" in event) {
        // The refund took the shares already; the return made it, not the provider.
        legs.push([ACCOUNTS.clearing, -event.amount], [ACCOUNTS.refunds, event.amount]);
        break;
      }
      const [before, after] =
        event.type === "refund" ? [event.before, event.after] : [event.refunded, f.total];
      const parts = refundParts(f, before, after);
      legs.push(
        [ACCOUNTS.platform, -parts.platform],
        [ACCOUNTS.app, -parts.app],
        [sellerAccount(f), -parts.seller],
        // A refund waits at the provider until it is made; a bank return is already gone.
        [event.type === "refund" ? ACCOUNTS.clearing : ACCOUNTS.refunds, after - before],
      );
      break;
    }
    case "payout_moved":
      legs.push([sellerAccount({ sellerId: event.from }), -f.seller], [sellerAccount(f), f.seller]);
      break;
    case "refund_settled":
      reference = event.reference;
      legs.push([ACCOUNTS.clearing, -event.amount], [ACCOUNTS.refunds, event.amount]);
      break;
    case "transfer":
    case "transfer_reversal": {
      reference = event.reference;
      const seller = f.sellerId ?? "app";
      const sign = event.type === "transfer" ? 1n : -1n;
      legs.push(
        [ACCOUNTS.sellerPayable(seller), -sign * event.amount],
        [ACCOUNTS.sellerPaid(seller), sign * event.amount],
      );
      break;
    }
  }
  const transactionId = transactionIdOf(f, event);
  // Same account twice (an app that sells takes both shares): one line for it.
  const merged = new Map<string, bigint>();
  for (const [account, amount] of legs) merged.set(account, (merged.get(account) ?? 0n) + amount);
  return [...merged]
    .filter(([, amount]) => amount !== 0n)
    .map(([account, amount], line) => ({
      transactionId,
      line,
      appId: f.appId,
      account,
      currency: f.currency,
      amount,
      type: event.type,
      paymentId: f.paymentId,
      reference,
    }));
}
