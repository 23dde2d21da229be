import { AppError, invalid } from "../http/errors.ts";
import { formatAmountText } from "./amount.ts";
import type { Currency } from "./currencies.ts";
import { type AppType, computeFees, type FeeInput, type FeeResult } from "./fees.ts";
import { type PriceItem, presentPriceItem } from "./price-item.ts";
import type { RateQuote, RatesProvider } from "./rates.ts";
import type { MoneySettings, PaymentProvider } from "./settings.ts";

export interface PriceItemRequest {
  /** Minor units of `currency`. */
  amount: bigint;
  currency: Currency;
  provider: PaymentProvider;
  appType: AppType;
  appFeeBps: number;
}

export interface PriceItemQuote {
  input: FeeInput;
  fees: FeeResult;
  priceItem: PriceItem;
  /** The rate used; a payment stores it and never recomputes it. */
  rate: RateQuote;
}

/**
 * The `price_item` of a charge under the current settings and rate: what a payment records when
 * it is created, and what a price's fee preview shows.
 */
export async function quotePriceItem(
  money: MoneySettings,
  rates: RatesProvider,
  request: PriceItemRequest,
): Promise<PriceItemQuote> {
  const rate = await rates.quote(request.currency, money.chargeCurrency);
  if (!rate) {
    throw new AppError(
      "conflict",
      `No exchange rate from ${request.currency.code} to ${money.chargeCurrency.code} is known`,
    );
  }
  const input: FeeInput = {
    amount: request.amount,
    priceCurrency: request.currency,
    chargeCurrency: money.chargeCurrency,
    rate: rate.ratio,
    provider: money.providers[request.provider],
    platformFeeBps: money.platformFeeBps,
    appFeeBps: request.appFeeBps,
    appType: request.appType,
  };
  const fees = computeFees(input);
  return { input, fees, priceItem: presentPriceItem(input, fees), rate };
}

/**
 * Refuses a charge above MAX_PAYMENT_AMOUNT (docs/payments.md). `pointer` names the field that set
 * the amount: the dynamic amount given, or the price whose own amount is too large.
 */
export function checkPaymentCeiling(money: MoneySettings, amountTotal: bigint, pointer: string): void {
  if (amountTotal <= money.maxPaymentAmount) return;
  const currency = money.chargeCurrency;
  throw invalid(
    pointer,
    `would charge ${formatAmountText(amountTotal, currency)} ${currency.code} with fees, above the ` +
      `maximum of ${formatAmountText(money.maxPaymentAmount, currency)} ${currency.code} per payment`,
  );
}
