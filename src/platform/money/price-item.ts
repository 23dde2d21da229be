import { formatAmount } from "./amount.ts";
import type { Breakdown, FeeInput, FeeResult } from "./fees.ts";
import { bpsToPercent } from "./percent.ts";
import { ratioToNumber } from "./rational.ts";

function amounts(b: Breakdown, format: (minor: bigint) => number) {
  return {
    amount: format(b.amount),
    amount_total: format(b.amount_total),
    amount_transaction_fee: format(b.amount_transaction_fee),
    amount_app_transaction_fee: format(b.amount_app_transaction_fee),
    amount_platform: format(b.amount_platform),
    amount_seller: format(b.amount_seller),
    amount_app: format(b.amount_app),
  };
}

/** A fee result as the interface's `price_item`: numbers in major units, percents as percents. */
export function presentPriceItem(input: FeeInput, result: FeeResult) {
  const charge = (minor: bigint) => formatAmount(minor, result.currency);
  const c = result.conversion;
  return {
    currency: result.currency.code,
    provider_min_amount_fee: charge(input.provider.minFee),
    provider_processing_fee_percent: bpsToPercent(input.provider.percentBps),
    platform_fee: bpsToPercent(input.platformFeeBps),
    app_fee: bpsToPercent(result.appFeeBps),
    app_type: input.appType,
    ...amounts(result, charge),
    processing_fee_amount: charge(result.processing_fee_amount),
    conversion: c && {
      currency: c.currency.code,
      exchange: ratioToNumber(c.exchange),
      converted_amount: charge(c.converted_amount),
      converted_amount_net: charge(c.converted_amount_net),
      ...amounts(c, (minor) => formatAmount(minor, c.currency)),
    },
  };
}

export type PriceItem = ReturnType<typeof presentPriceItem>;
