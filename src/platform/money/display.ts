import { formatAmountText } from "./amount.ts";
import type { Currency } from "./currencies.ts";

/**
 * An amount as a person reads it on a page: `$25.75`, `¥1,500`, `KWD 1.500`, `1.5 NEAR`. Fiat
 * shows every decimal of its minor unit (ISO 4217), chain currencies only the digits they have.
 * The exact decimal text goes to Intl, never a float, so no digit is rounded away.
 */
export function formatMoney(minor: bigint, currency: Currency): string {
  const text = formatAmountText(minor, currency) as `${number}`;
  if (currency.kind === "fiat") {
    return new Intl.NumberFormat("en-US", {
      style: "currency",
      currency: currency.code.toUpperCase(),
      minimumFractionDigits: currency.exponent,
      maximumFractionDigits: currency.exponent,
    }).format(text);
  }
  const number = new Intl.NumberFormat("en-US", {
    minimumFractionDigits: 0,
    maximumFractionDigits: currency.exponent,
  }).format(text);
  return `${number} ${currency.code.toUpperCase()}`;
}
