import type { Currency } from "./currencies.ts";
import { divRoundHalfUp, maxBig, minBig, type Ratio } from "./rational.ts";
import type { ProviderFee } from "./settings.ts";

/**
 * The fee model of docs/fees.md, as pure functions over minor units (bigint).
 * docs/fees.md explains it with worked examples, which test/money/fees-doc.test.ts checks.
 */

export type AppType = "individual" | "marketplace";

export interface FeeInput {
  /** The price, in minor units of `priceCurrency`. */
  amount: bigint;
  priceCurrency: Currency;
  chargeCurrency: Currency;
  /** Charge-currency major units per price-currency major unit; needed when the currencies differ. */
  rate?: Ratio;
  provider: ProviderFee;
  platformFeeBps: number;
  appFeeBps: number;
  appType: AppType;
}

/** The parts of a charge; amount_total = processing + app_transaction_fee + platform + app + seller. */
export interface Breakdown {
  amount: bigint;
  amount_total: bigint;
  amount_transaction_fee: bigint;
  amount_app_transaction_fee: bigint;
  amount_platform: bigint;
  amount_app: bigint;
  amount_seller: bigint;
}

export interface Conversion extends Breakdown {
  currency: Currency;
  exchange: Ratio;
  /** The price in the charge currency. */
  converted_amount: bigint;
  /** The seller's share in the charge currency (converted_amount less platform and app shares). */
  converted_amount_net: bigint;
}

export interface FeeResult extends Breakdown {
  /** The charge currency: every figure of the top level is in it. */
  currency: Currency;
  processing_fee_amount: bigint;
  /** The app fee actually applied: an individual app takes none. */
  appFeeBps: number;
  conversion: Conversion | null;
}

const BPS = 10_000n;

/** A percent share of an amount, rounded half-up once. */
export function share(amount: bigint, bps: number): bigint {
  return divRoundHalfUp(amount * BigInt(bps), BPS);
}

/** What the provider keeps of a charge of `total`. */
export function processingFee(total: bigint, provider: ProviderFee): bigint {
  const percent = share(total, provider.percentBps);
  return maxBig(percent, provider.minFee);
}

/**
 * The smallest charge whose provider fee still leaves `amount`. `total - fee(total)` never
 * decreases as `total` grows (the percent part grows by at most one unit per unit, as the percent
 * is below 100), so the first total that covers `amount`, searched upwards from a lower bound, is
 * the smallest.
 */
export function smallestTotal(amount: bigint, provider: ProviderFee): bigint {
  const keep = BPS - BigInt(provider.percentBps);
  // total - round(total x p) >= amount needs total x (1 - p) >= amount - 1/2.
  const percentBound = amount > 0n ? ((2n * amount - 1n) * BPS) / (2n * keep) : 0n;
  const minBound = amount + provider.minFee;
  let total = percentBound > minBound ? percentBound : minBound;
  while (total - processingFee(total, provider) < amount) total++;
  return total;
}

function breakdown(
  amount: bigint,
  total: bigint,
  fee: bigint,
  platformBps: number,
  appBps: number,
): Breakdown {
  const platform = share(amount, platformBps);
  const app = share(amount, appBps);
  return {
    amount,
    amount_total: total,
    amount_transaction_fee: total - amount,
    amount_app_transaction_fee: total - fee - amount,
    amount_platform: platform,
    amount_app: app,
    // Whatever the roundings leave over is the seller's.
    amount_seller: amount - platform - app,
  };
}

/** Converts between minor units of two currencies at `rate` (to-major per from-major), half-up. */
export function convert(amount: bigint, from: Currency, to: Currency, rate: Ratio): bigint {
  return divRoundHalfUp(
    amount * rate.num * 10n ** BigInt(to.exponent),
    rate.den * 10n ** BigInt(from.exponent),
  );
}

/**
 * The unit, in minor units of the price's currency, that figures converted back from the charge
 * are rounded to: the price currency's minor unit, or the largest power of ten of it that is still
 * worth at most one minor unit of the charge currency, whichever is larger. A charge is exact to
 * the cent, so its conversion into NEAR (10^-24) is shown to the 0.001 NEAR that a cent is worth
 * at 3.25 usd per near (3.092 rather than 3.0923076923076924); a usd price charged in eur keeps
 * its cents. Exact: found with integers, never a logarithm.
 */
function convertedUnit(charge: Currency, price: Currency, rate: Ratio): bigint {
  // 10^-d price units are worth rate x 10^-d charge units; at most one charge minor unit while
  // rate.num x 10^charge.exponent <= rate.den x 10^d.
  const worth = rate.num * 10n ** BigInt(charge.exponent);
  let decimals = 0;
  while (decimals < price.exponent && worth > rate.den * 10n ** BigInt(decimals)) decimals++;
  return 10n ** BigInt(price.exponent - decimals);
}

/** `amount` rounded half-up to a whole number of `unit`s (all in minor units). */
function roundToUnit(amount: bigint, unit: bigint): bigint {
  return divRoundHalfUp(amount, unit) * unit;
}

export function computeFees(input: FeeInput): FeeResult {
  const appFeeBps = input.appType === "marketplace" ? input.appFeeBps : 0;
  const converting = input.priceCurrency.code !== input.chargeCurrency.code;
  if (converting && !input.rate) {
    throw new Error(`computeFees: no rate from ${input.priceCurrency.code} to ${input.chargeCurrency.code}`);
  }
  const charged = converting
    ? convert(input.amount, input.priceCurrency, input.chargeCurrency, input.rate!)
    : input.amount;
  const total = smallestTotal(charged, input.provider);
  const fee = processingFee(total, input.provider);
  const top = breakdown(charged, total, fee, input.platformFeeBps, appFeeBps);
  let conversion: Conversion | null = null;
  if (converting) {
    const rate = input.rate!;
    const back = { num: rate.den, den: rate.num };
    const own = breakdown(input.amount, input.amount, 0n, input.platformFeeBps, appFeeBps);
    // The charge expressed in the price's currency; never below the price, whatever the roundings.
    const unit = convertedUnit(input.chargeCurrency, input.priceCurrency, rate);
    const converted = roundToUnit(convert(total, input.chargeCurrency, input.priceCurrency, back), unit);
    const ownTotal = maxBig(converted, input.amount);
    const transactionFee = ownTotal - input.amount;
    const appTransaction = roundToUnit(
      convert(top.amount_app_transaction_fee, input.chargeCurrency, input.priceCurrency, back),
      unit,
    );
    conversion = {
      ...own,
      currency: input.priceCurrency,
      exchange: rate,
      converted_amount: charged,
      converted_amount_net: top.amount_seller,
      amount_total: ownTotal,
      amount_transaction_fee: transactionFee,
      amount_app_transaction_fee: minBig(appTransaction, transactionFee),
    };
  }
  return { ...top, currency: input.chargeCurrency, processing_fee_amount: fee, appFeeBps, conversion };
}

/** Whether every part is non-negative; a price failing this is refused when it is saved. */
export function sellerShareOk(result: FeeResult): boolean {
  return result.amount_seller >= 0n && (result.conversion === null || result.conversion.amount_seller >= 0n);
}
