import { randomBytes } from "node:crypto";
import type { FastifyError } from "fastify";
import type { Deps } from "../../deps.ts";
import { AppError, notFound } from "../../platform/http/errors.ts";
import { formatAmountText } from "../../platform/money/amount.ts";
import { type Currency, currencyOf } from "../../platform/money/currencies.ts";
import { formatMoney } from "../../platform/money/display.ts";
import { convert } from "../../platform/money/fees.ts";
import { quotePriceItem } from "../../platform/money/quote.ts";
import type { PaymentProvider } from "../../platform/money/settings.ts";
import { appBrand } from "../apps/for-pages.ts";
import { amountToPay } from "../prices/amount.ts";
import { type PriceRow, presentPublicPrice } from "../prices/presenters.ts";
import { findPrice } from "../prices/queries.ts";
import { feeContext, viewPrice } from "../prices/service.ts";
import { triggerParams } from "../triggers/form.ts";
import { checkoutErrorPage, checkoutPage, checkoutPolicy } from "./checkout-page.ts";
import type { PaymentRow } from "./lifecycle.ts";

/**
 * What the shopper is charged, line by line, as the page shows it before paying and on the
 * receipt: the price (in its own currency), the price in the charge currency when they differ,
 * the fees added on top (the `price_item`'s `amount_transaction_fee`) and the total charged
 * (`amount_total`). Every figure is formatted per its currency.
 */
export interface ChargeSummary {
  price: string;
  converted: string | null;
  fees: string;
  total: string;
}

function summarize(
  amount: bigint,
  priceCurrency: Currency,
  charged: bigint,
  total: bigint,
  chargeCurrency: Currency,
): ChargeSummary {
  return {
    price: formatMoney(amount, priceCurrency),
    converted: priceCurrency.code === chargeCurrency.code ? null : formatMoney(charged, chargeCurrency),
    fees: formatMoney(total - charged, chargeCurrency),
    total: formatMoney(total, chargeCurrency),
  };
}

/**
 * The summary a payment of `price` would have now (`amount` only for dynamic prices). `fees`, the
 * app's fee terms when the caller read them already (a page quoting each payment method).
 */
export async function quoteCheckout(
  deps: Deps,
  price: PriceRow,
  provider: PaymentProvider,
  amountGiven: string | undefined,
  amountPath: string,
  fees?: Awaited<ReturnType<typeof feeContext>>,
): Promise<ChargeSummary> {
  const currency = currencyOf(price.currency, "currency");
  const amount = amountToPay(price, amountGiven, currency, amountPath);
  const quote = await quotePriceItem(deps.config.money, deps.rates, {
    amount,
    currency,
    provider,
    ...(fees ?? (await feeContext(deps.db, price.appId))),
  });
  return summarize(amount, currency, quote.fees.amount, quote.fees.amount_total, quote.fees.currency);
}

/** The summary of what a payment charges, from the amounts and the rate it stored when created. */
export function paymentSummary(row: PaymentRow): ChargeSummary {
  const currency = currencyOf(row.currency, "currency");
  const chargeCurrency = currencyOf(row.chargeCurrency, "charge_currency");
  const rate = { num: BigInt(row.rate.num), den: BigInt(row.rate.den) };
  // The same conversion `computeFees` made, so the fees line is exactly `amount_transaction_fee`.
  const charged =
    currency.code === chargeCurrency.code ? row.amount : convert(row.amount, currency, chargeCurrency, rate);
  return summarize(row.amount, currency, charged, row.chargeAmount, chargeCurrency);
}

export async function priceById(deps: Deps, priceId: string): Promise<PriceRow> {
  const price = await findPrice(deps.db, priceId);
  if (!price) throw notFound("Price");
  return price;
}

/** Everything the page is rendered from. `row` is the price as the view counted it. */
export async function checkoutView(deps: Deps, row: PriceRow, methods: PaymentProvider[]) {
  const price = presentPublicPrice(row, deps.now());
  const currency = currencyOf(row.currency, "currency");
  const quotes: Partial<Record<PaymentProvider, ChargeSummary>> = {};
  const fees = await feeContext(deps.db, row.appId);
  for (const method of methods)
    quotes[method] = await quoteCheckout(deps, row, method, undefined, "/amount", fees);
  return {
    price: {
      id: price.id,
      name: price.name,
      type: price.type,
      currency: currency.code,
      exponent: currency.exponent,
      /** The price's amount (the least a dynamic price takes), minor units as text, and shown. */
      amount_minor: row.amount.toString(),
      amount_decimal: formatAmountText(row.amount, currency),
      amount_text: formatMoney(row.amount, currency),
      expired: price.expired,
    },
    quotes,
    params: await triggerParams(deps.db, row.triggerId),
    // The app's name, icon and colour, for the page and its 410 page.
    brand: await appBrand(deps.db, row.appId),
  };
}

/** The page's own failures read as a page: 404 for no such price, plain words, the request id for 5xx. */
function pageError(error: FastifyError | AppError): { status: number; heading: string; message: string } {
  const status =
    error instanceof AppError ? error.status : error.validation ? 404 : (error.statusCode ?? 500);
  if (status === 404 || status === 400) {
    return {
      status: 404,
      heading: "Checkout not found",
      message: "There is nothing to pay at this address. Check the link, or ask the seller for a new one.",
    };
  }
  if (status < 500 && error instanceof AppError) {
    return { status, heading: "This price cannot be paid right now", message: error.message };
  }
  return {
    status: 500,
    heading: "Something went wrong",
    message: "Something went wrong on our side. Please try again in a moment.",
  };
}

/** A page answer: its status, its Content-Security-Policy and the HTML. */
export interface CheckoutPageAnswer {
  status: number;
  policy: string;
  html: string;
}

/**
 * The hosted checkout page of a price (counts a view): 410 with a page of its own once the price
 * has expired. Cards go through the app's provider: with Stripe the page needs Stripe.js, and
 * only then, and offers cards alone.
 */
export async function hostedCheckout(deps: Deps, priceId: string): Promise<CheckoutPageAnswer> {
  const row = await viewPrice(deps, priceId);
  const { config } = deps;
  const stripe =
    config.paymentsProvider === "stripe" && config.stripePublishableKey
      ? { publishableKey: config.stripePublishableKey, jsUrl: config.stripeJsUrl }
      : null;
  const nonce = randomBytes(16).toString("base64");
  const methods: PaymentProvider[] = stripe ? ["card"] : ["card", "us_bank_account"];
  const view = await checkoutView(deps, row, methods);
  if (view.price.expired) {
    return {
      status: 410,
      policy: checkoutPolicy(nonce, null),
      html: checkoutErrorPage(
        "No longer available",
        `${view.price.name} can no longer be paid. Ask the seller for a new link.`,
        nonce,
        { brand: view.brand },
      ),
    };
  }
  return {
    status: 200,
    policy: checkoutPolicy(nonce, stripe?.jsUrl ?? null),
    html: checkoutPage({ ...view, sandbox: config.sandbox, stripe }, config.money.chargeCurrency.code, nonce),
  };
}

/** The page any failure of the checkout page answers; the request id is shown for a 5xx. */
export function checkoutFailurePage(error: FastifyError | AppError, requestId: string): CheckoutPageAnswer {
  const { status, heading, message } = pageError(error);
  const nonce = randomBytes(16).toString("base64");
  return {
    status,
    policy: checkoutPolicy(nonce, null),
    html: checkoutErrorPage(heading, message, nonce, { requestId: status >= 500 ? requestId : undefined }),
  };
}
