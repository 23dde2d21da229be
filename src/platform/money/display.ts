import { formatAmountText } from "./amount.ts";
import type { Currency } from "./currencies.ts";

// A formatter per currency, made once: `new Intl.NumberFormat` loads ICU's locale data and was 43%
// of the hosted checkout page's read of its payment, which formats four amounts and is sent every
// 700 ms while the page waits (docs/benchmarks.md, "The hosted checkout page's read of its payment").
const formatters = new Map<string, Intl.NumberFormat>();

function formatterOf(currency: Currency): Intl.NumberFormat {
  const key = `${currency.kind}:${currency.code}:${currency.exponent}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter =
      currency.kind === "fiat"
        ? new Intl.NumberFormat("en-US", {
            style: "currency",
            currency: currency.code.toUpperCase(),
            minimumFractionDigits: currency.exponent,
            maximumFractionDigits: currency.exponent,
          })
        : new Intl.NumberFormat("en-US", {
            minimumFractionDigits: 0,
            maximumFractionDigits: currency.exponent,
          });
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * An amount as a person reads it on a page: `$25.75`, `¥1,500`, `KWD 1.500`, `1.5 NEAR`. Fiat
 * shows every decimal of its minor unit (ISO 4217), chain currencies only the digits they have.
 * The exact decimal text goes to Intl, never a float, so no digit is rounded away.
 */
export function formatMoney(minor: bigint, currency: Currency): string {
  const text = formatAmountText(minor, currency) as `${number}`;
  const number = formatterOf(currency).format(text);
  return currency.kind === "fiat" ? number : `${number} ${currency.code.toUpperCase()}`;
}
