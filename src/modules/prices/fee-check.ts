import type { Deps } from "../../deps.ts";
import { invalid } from "../../platform/http/errors.ts";
import { formatAmountText } from "../../platform/money/amount.ts";
import type { Currency } from "../../platform/money/currencies.ts";
import { type AppType, computeFees, sellerShareOk } from "../../platform/money/fees.ts";
import { bpsToPercent } from "../../platform/money/percent.ts";
import { PAYMENT_PROVIDERS } from "../../platform/money/settings.ts";

export interface FeeContext {
  appType: AppType;
  appFeeBps: number;
}

/**
 * Refuses a price whose seller share would be negative under the app's and the platform's fees
 * (docs/fees.md), with every provider, in the price's currency and, when a rate is known, in the
 * charge currency. A 400 on `/body/amount`: a larger amount (or lower fees) fixes it.
 */
export async function assertSellerShare(deps: Deps, app: FeeContext, amount: bigint, currency: Currency) {
  const { money } = deps.config;
  const quote = await deps.rates.quote(currency, money.chargeCurrency);
  // Without a rate the charge cannot be computed yet; the shares in the price's own currency can.
  const chargeCurrency = quote ? money.chargeCurrency : currency;
  for (const provider of PAYMENT_PROVIDERS) {
    const result = computeFees({
      amount,
      priceCurrency: currency,
      chargeCurrency,
      rate: quote?.ratio,
      provider: quote ? money.providers[provider] : { percentBps: 0, minFee: 0n },
      platformFeeBps: money.platformFeeBps,
      appFeeBps: app.appFeeBps,
      appType: app.appType,
    });
    if (!sellerShareOk(result)) {
      throw invalid(
        "/body/amount",
        `${formatAmountText(amount, currency)} ${currency.code} leaves the seller a negative share under the ` +
          `app fee (${bpsToPercent(result.appFeeBps)}%) and the platform fee (${bpsToPercent(money.platformFeeBps)}%)`,
      );
    }
  }
}
