import { eq, inArray } from "drizzle-orm";
import type { Network } from "../../platform/chains/adapter.ts";
import type { Tx } from "../../platform/db/index.ts";
import { newId } from "../../platform/ids.ts";
import { prices } from "./tables.ts";

/*
 * An auction's two prices, written only here: the auctions module creates, renames, reprices,
 * expires and deletes them through these functions, in its own transaction, and never writes the
 * prices table itself (test/platform/layers.test.ts).
 */

/** The two prices of an auction: bids are paid with `bid`, the sale is recorded against `end`. */
export interface AuctionPriceIds {
  bid: string;
  end: string;
}

export interface AuctionPriceTerms {
  appId: string;
  auctionId: string;
  /** The auction's name: the end price's, and the bid price's with " (bid)" after it. */
  name: string;
  triggerId: string | null;
  currency: string;
  /** The starting amount, minor units: the least a bid pays, and the sale's amount until it ends. */
  amount: bigint;
  networkType: Network;
}

const bidPriceName = (auctionName: string) => `${auctionName} (bid)`;

/** Inserts the auction's two prices (one statement) and answers their ids. */
export async function insertAuctionPrices(
  tx: Tx,
  terms: AuctionPriceTerms,
  now: Date,
): Promise<AuctionPriceIds> {
  const price = (category: "bid" | "auction", name: string) => ({
    id: newId("price"),
    appId: terms.appId,
    // The bid price takes each bid's amount (at least the start); the end price is the sale.
    type: category === "bid" ? ("dynamic" as const) : ("static" as const),
    triggerId: terms.triggerId,
    currency: terms.currency,
    amount: terms.amount,
    metadata: { auction_id: terms.auctionId },
    name,
    networkType: terms.networkType,
    category,
    createdAt: now,
    updatedAt: now,
  });
  const bidPrice = price("bid", bidPriceName(terms.name));
  const endPrice = price("auction", terms.name);
  await tx.insert(prices).values([bidPrice, endPrice]);
  return { bid: bidPrice.id, end: endPrice.id };
}

/**
 * The auction's amount, currency or name changed: both prices follow (an undefined field is left
 * as it is; `updated_at` moves either way).
 */
export async function updateAuctionPrices(
  tx: Tx,
  ids: AuctionPriceIds,
  change: { amount?: bigint; currency?: string; name?: string },
  now: Date,
) {
  await tx
    .update(prices)
    .set({ amount: change.amount, currency: change.currency, updatedAt: now })
    .where(inArray(prices.id, [ids.bid, ids.end]));
  if (change.name !== undefined) {
    await tx.update(prices).set({ name: change.name }).where(eq(prices.id, ids.end));
    await tx
      .update(prices)
      .set({ name: bidPriceName(change.name) })
      .where(eq(prices.id, ids.bid));
  }
}

/** The auction ended: neither price can be paid any more. */
export async function expireAuctionPrices(tx: Tx, ids: AuctionPriceIds, now: Date) {
  await tx
    .update(prices)
    .set({ expired: true, updatedAt: now })
    .where(inArray(prices.id, [ids.bid, ids.end]));
}

/** The auction was deleted (it had no bids): its prices go with it. */
export async function deleteAuctionPrices(tx: Tx, ids: AuctionPriceIds) {
  await tx.delete(prices).where(inArray(prices.id, [ids.bid, ids.end]));
}
