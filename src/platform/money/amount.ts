import { invalid } from "../http/errors.ts";
import type { Currency } from "./currencies.ts";

/**
 * The largest amount accepted, in major units (10^30): far above any real price, and it
 * keeps every amount, even in yoctoNEAR, inside the database's numeric(78, 0) column.
 */
const MAX_MAJOR_DIGITS = 30;

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
const PLAIN_DECIMAL = /^\d+(?:\.\d+)?$/;

/**
 * A JSON amount in major units (`12.5`, or the string `"12.5"`) to an exact count of minor units.
 *
 * No float arithmetic: a number is read through its shortest round-trip decimal text (what
 * `String(n)` gives, `1e-7` and `1.5e+21` included), so `0.1` is exactly one tenth. A double holds
 * about 15 significant digits; amounts that need more (18 or 24 decimal chain currencies) must be
 * sent as decimal strings, which are read digit by digit.
 */
export function parseAmount(value: number | string, currency: Currency, path: string): bigint {
  let text: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw invalid(path, "must be a finite number");
    text = String(value);
  } else {
    if (!PLAIN_DECIMAL.test(value)) {
      throw invalid(path, "must be a non-negative decimal number such as 12.5, without exponent or sign");
    }
    text = value;
  }
  const match = DECIMAL.exec(text);
  if (!match) throw invalid(path, "must be a decimal number");
  const [, sign, whole, fraction = "", exponentText = "0"] = match;
  const digits = BigInt(whole + fraction);
  if (sign && digits !== 0n) throw invalid(path, "must not be negative");
  // value = digits x 10^(exponent - fraction length); in minor units, shift by the currency's exponent.
  const shift = Number(exponentText) - fraction.length + currency.exponent;
  let minor: bigint;
  if (shift >= 0) {
    minor = digits * 10n ** BigInt(shift);
  } else {
    const divisor = 10n ** BigInt(-shift);
    if (digits % divisor !== 0n) {
      throw invalid(path, `has more decimals than ${currency.code} allows (at most ${currency.exponent})`);
    }
    minor = digits / divisor;
  }
  if (minor >= 10n ** BigInt(MAX_MAJOR_DIGITS + currency.exponent)) {
    throw invalid(path, `must be less than 10^${MAX_MAJOR_DIGITS}`);
  }
  return minor;
}

/** Minor units back to exact decimal text in major units: `1250n` usd -> `"12.5"`. */
export function formatAmountText(minor: bigint, currency: Currency): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(currency.exponent + 1, "0");
  const whole = digits.slice(0, digits.length - currency.exponent);
  const fraction = digits.slice(digits.length - currency.exponent).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/**
 * Minor units to the JSON number the interface answers. Exact whenever the amount has at most 15
 * significant digits; beyond that the number is the closest double, and `formatAmountText` is exact.
 */
export function formatAmount(minor: bigint, currency: Currency): number {
  return Number(formatAmountText(minor, currency));
}
