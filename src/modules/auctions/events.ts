import type { Deps } from "../../deps.ts";
import type { Tx } from "../../platform/db/index.ts";
import { formatAmount } from "../../platform/money/amount.ts";
import { currencyOf } from "../../platform/money/currencies.ts";
import type { EventType } from "../webhooks/event-types.ts";
import { emitEvent } from "../webhooks/events.ts";
import type { AuctionRow, BidRow } from "./presenters.ts";

/** Sends one of an auction's webhook events: to its app, the auction's id first in the data. */
export function emitAuctionEvent(
  deps: Deps,
  tx: Tx,
  auction: AuctionRow,
  type: EventType,
  data: Record<string, unknown>,
) {
  return emitEvent(deps, tx, { appId: auction.appId, type, data: { auction_id: auction.id, ...data } });
}

/** A bid's amount as the events carry it: major units of the auction's currency; null for no bid. */
export function bidAmount(auction: AuctionRow, bid: BidRow | undefined) {
  const currency = currencyOf(auction.currency, "currency");
  return { amount: bid ? formatAmount(bid.amount, currency) : null, currency: currency.code };
}
