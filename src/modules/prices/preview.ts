import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { currencyOf } from "../../platform/money/currencies.ts";
import { quotePriceItem } from "../../platform/money/quote.ts";
import type { PaymentProvider } from "../../platform/money/settings.ts";
import { requireAppRole } from "../apps/access.ts";
import { amountToPay } from "./amount.ts";
import { feeContext, loadPrice } from "./service.ts";

export interface PreviewQuery {
  payment_provider?: PaymentProvider;
  amount?: string;
}

/**
 * The `price_item` a payment of this price would record now: the shopper's total and every
 * share, so an app can show the total before the shopper pays.
 */
export async function previewPriceItem(
  deps: Deps,
  actor: Principal,
  appId: string,
  priceId: string,
  query: PreviewQuery,
) {
  await requireAppRole(deps.db, actor, appId, "view");
  const price = await loadPrice(deps.db, appId, priceId);
  const currency = currencyOf(price.currency, "currency");
  const amount = amountToPay(price, query.amount, currency, "/query/amount");
  const app = await feeContext(deps.db, appId);
  const quote = await quotePriceItem(deps.config.money, deps.rates, {
    amount,
    currency,
    provider: query.payment_provider ?? "card",
    ...app,
  });
  return quote.priceItem;
}
