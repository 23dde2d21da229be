import { formatAmount, formatAmountText } from "../../platform/money/amount.ts";
import { currencyOf } from "../../platform/money/currencies.ts";
import { ratioToNumber } from "../../platform/money/rational.ts";
import type { presentApp } from "../apps/service.ts";
import type { PaymentRow } from "../payments/lifecycle.ts";
import { presentPayment } from "../payments/presenters.ts";
import { type PriceRow, presentPrice } from "../prices/presenters.ts";
import type { auctions, bids, shoppers } from "./tables.ts";

export type AuctionRow = typeof auctions.$inferSelect;
export type BidRow = typeof bids.$inferSelect;
export type ShopperRow = typeof shoppers.$inferSelect;
export type AppView = ReturnType<typeof presentApp>;

export function presentShopper(row: ShopperRow) {
  return {
    id: row.id,
    phone_or_email: row.email,
    auth_method: "email" as const,
    created_at: row.createdAt.toISOString(),
    disabled: row.disabled,
  };
}

function presentConversion(conversion: BidRow["conversion"]) {
  if (!conversion) return null;
  return {
    from_currency: conversion.from_currency,
    from_amount: Number(conversion.from_amount),
    rate: ratioToNumber({ num: BigInt(conversion.rate.num), den: BigInt(conversion.rate.den) }),
  };
}

export interface BidContext {
  shopper: ShopperRow;
  payment: PaymentRow;
}

/** The interface's Bid: its shopper, and its payment as the payments module presents it. */
export function presentBid(row: BidRow, context: BidContext & { app: AppView; price: PriceRow; now: Date }) {
  const currency = currencyOf(row.currency, "currency");
  return {
    id: row.id,
    auction: row.auctionId,
    currency: currency.code,
    currency_conversion: presentConversion(row.conversion),
    amount: formatAmount(row.amount, currency),
    status: row.status,
    reason: row.reason,
    shopper: presentShopper(context.shopper),
    payment: presentPayment(context.payment, { ...context, price: presentPrice(context.price, context.now) }),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The standing bid: the highest placed one (or the winner once closed). */
function standingBid(rows: BidRow[]): BidRow | undefined {
  let best: BidRow | undefined;
  for (const row of rows) {
    if (row.status !== "placed" && row.status !== "won") continue;
    if (!best || row.amount > best.amount) best = row;
  }
  return best;
}

export function presentAuction(
  row: AuctionRow,
  context: {
    app: AppView;
    bidPrice: PriceRow;
    endPrice: PriceRow;
    bids: (BidRow & BidContext)[];
    now: Date;
  },
) {
  const currency = currencyOf(row.currency, "currency");
  const standing = standingBid(context.bids);
  return {
    id: row.id,
    app: context.app,
    currency: currency.code,
    currency_conversion: presentConversion(standing?.conversion ?? null),
    amount: formatAmount(row.amount, currency),
    amount_decimal: formatAmountText(row.amount, currency),
    current_amount: standing ? formatAmount(standing.amount, currency) : null,
    min_increment: formatAmount(row.minIncrement, currency),
    name: row.name,
    expired: row.expired,
    views: row.views,
    network_type: row.networkType,
    ends_at: row.endsAt.toISOString(),
    trigger_id: row.triggerId,
    winner_bid_id: row.winnerBidId,
    bids: context.bids.map((bid) =>
      presentBid(bid, { ...bid, app: context.app, price: context.bidPrice, now: context.now }),
    ),
    on_bid_payment_intent: presentPrice(context.bidPrice, context.now),
    on_end_payment_intent: presentPrice(context.endPrice, context.now),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
