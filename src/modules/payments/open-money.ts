import type { Tx } from "../../platform/db/index.ts";
import { openMoneyCounts } from "./sql.ts";

/**
 * The kinds of money still in flight that keep an app from being deleted, and what ends each:
 * - `pending`: opened and not being paid: cancel it (or let the shopper pay);
 * - `processing`: an authorisation or a bank debit under way: wait for it to land;
 * - `hold`: a held card or a collected bank debit whose contract call runs: wait, or cancel the hold;
 * - `bids_on_hold`: auction bids backed by a hold: end the auction (or cancel the bid's payment);
 * - `failed_captured`: collected but the contract call failed: refund or retry;
 * - `failed_transfers`: paid but a seller transfer is missing: retry or refund.
 * Paid, refunded, failed and cancelled payments are settled: they never block a delete, and are
 * kept after it.
 */
const OPEN_MONEY_KINDS = Object.freeze([
  "pending",
  "processing",
  "hold",
  "bids_on_hold",
  "failed_captured",
  "failed_transfers",
] as const);
export type OpenMoney = Record<(typeof OPEN_MONEY_KINDS)[number], number>;

const LABELS: Record<keyof OpenMoney, [string, string]> = {
  pending: ["payment pending", "payments pending"],
  processing: ["payment processing", "payments processing"],
  hold: ["payment on hold", "payments on hold"],
  bids_on_hold: ["bid on hold", "bids on hold"],
  failed_captured: ["payment failed-captured", "payments failed-captured"],
  failed_transfers: ["payment failed-transfers", "payments failed-transfers"],
};

/**
 * `deps.moneyInFlight` for apps (an app with money in flight is not deleted): the counts, and
 * `1 payment processing, 2 bids on hold`, or undefined when nothing is open.
 */
export async function moneyInFlight(tx: Tx, appId: string) {
  const [counts]: OpenMoney[] = await openMoneyCounts(tx, { appId });
  return { counts, described: describeOpenMoney(counts) };
}

/**
 * `deps.sellerMoneyInFlight` for seller records (a seller with payments open is not deleted: their
 * share would have nowhere to go): the same counts and sentence, for the payments paying them.
 */
export async function sellerMoneyInFlight(tx: Tx, kycId: string) {
  const [counts]: OpenMoney[] = await openMoneyCounts(tx, { kycId });
  return { counts, described: describeOpenMoney(counts) };
}

/** `1 payment processing, 2 bids on hold`, or undefined when nothing is open. */
export function describeOpenMoney(open: OpenMoney): string | undefined {
  const parts = OPEN_MONEY_KINDS.filter((kind) => open[kind] > 0).map(
    (kind) => `${open[kind]} ${LABELS[kind][open[kind] === 1 ? 0 : 1]}`,
  );
  return parts.length > 0 ? parts.join(", ") : undefined;
}
