import { invalid } from "../../platform/http/errors.ts";
import { parseAmount } from "../../platform/money/amount.ts";
import type { Currency } from "../../platform/money/currencies.ts";
import type { prices } from "./tables.ts";

/**
 * What a payment of this price charges, in minor units of `currency`: the price's own amount, or,
 * for a dynamic price, the amount given (at least the price's). `pointer` names the field the
 * amount came from, for the error.
 */
export function amountToPay(
  price: Pick<typeof prices.$inferSelect, "type" | "amount">,
  given: number | string | undefined,
  currency: Currency,
  pointer: string,
): bigint {
  if (given === undefined) return price.amount;
  if (price.type !== "dynamic") throw invalid(pointer, "only a dynamic price takes an amount");
  const amount = parseAmount(given, currency, pointer);
  if (amount < price.amount) throw invalid(pointer, "must be at least the price's amount");
  return amount;
}
