import { and, eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Executor } from "../../platform/db/index.ts";
import { notFound } from "../../platform/http/errors.ts";
import type { prices } from "../prices/tables.ts";
import { renderCall } from "../triggers/render.ts";
import { triggers } from "../triggers/tables.ts";
import { wallets } from "../wallets/tables.ts";

type PriceRow = typeof prices.$inferSelect;

/**
 * The trigger's parameters of a new payment are valid: they are rendered into the trigger's call
 * exactly as the chain step will, so a payment whose call cannot be made is refused (400 naming
 * the parameter) before any money moves. Answers the parameters as they will be used. (Whether
 * the seller may be paid is checked beside it in `openPayment`.)
 */
export async function checkPayable(
  _deps: Deps,
  db: Executor,
  price: PriceRow,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (!price.triggerId) return params;
  const [row] = await db
    .select({ trigger: triggers, wallet: wallets })
    .from(triggers)
    .innerJoin(wallets, eq(wallets.id, triggers.walletId))
    .where(and(eq(triggers.id, price.triggerId), eq(triggers.appId, price.appId)));
  if (!row) throw notFound("Trigger");
  renderCall(row.trigger, row.wallet, params, "/body/trigger_data_input/params_data_input");
  return params;
}
