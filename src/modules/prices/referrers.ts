import { count, eq } from "drizzle-orm";
import type { Executor } from "../../platform/db/index.ts";
import { prices } from "./tables.ts";

/** `deps.referrers.pricesOfTrigger`: a trigger some price runs is not deleted. */
export async function pricesOfTrigger(db: Executor, triggerId: string): Promise<number> {
  const [{ used }] = await db.select({ used: count() }).from(prices).where(eq(prices.triggerId, triggerId));
  return used;
}
