import { formatAmount, formatAmountText } from "../../platform/money/amount.ts";
import { currencyOf } from "../../platform/money/currencies.ts";
import type { prices } from "./tables.ts";

export type PriceRow = typeof prices.$inferSelect;

/** Expired by PATCH (or an auction's end), or because its `expires_at` has passed. */
export function isExpired(row: PriceRow, now: Date): boolean {
  return row.expired || (row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime());
}

function common(row: PriceRow, now: Date) {
  const currency = currencyOf(row.currency, "currency");
  return {
    id: row.id,
    type: row.type as "static" | "dynamic",
    currency: currency.code,
    amount: formatAmount(row.amount, currency),
    amount_decimal: formatAmountText(row.amount, currency),
    name: row.name,
    expired: isExpired(row, now),
    views: row.views,
    network_type: row.networkType,
    contract: row.contract,
    chain: row.chain,
    category: row.category as "payment" | "bid" | "auction",
    created_at: row.createdAt.toISOString(),
  };
}

export function presentPrice(row: PriceRow, now: Date) {
  return {
    ...common(row, now),
    kyc_id: row.kycId,
    trigger_id: row.triggerId,
    metadata: row.metadata,
    expires_at: row.expiresAt?.toISOString() ?? null,
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presentPublicPrice(row: PriceRow, now: Date) {
  return common(row, now);
}
