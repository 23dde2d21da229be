import type { Deps } from "../../deps.ts";
import type { Tx } from "../../platform/db/index.ts";
import type { prices } from "../prices/tables.ts";

type PriceRow = typeof prices.$inferSelect;

/**
 * What must hold for a price to be paid beyond its expiry: the trigger's parameters are valid
 * and the seller may be paid. Answers the trigger parameters as they will be used.
 */
export async function checkPayable(
  _deps: Deps,
  _tx: Tx,
  _price: PriceRow,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  return params;
}
