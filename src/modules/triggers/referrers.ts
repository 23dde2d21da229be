import { count, eq } from "drizzle-orm";
import type { Executor } from "../../platform/db/index.ts";
import { triggers } from "./tables.ts";

/** `deps.referrers.triggersOfWallet`: a wallet some trigger calls through is not deleted. */
export async function triggersOfWallet(db: Executor, walletId: string): Promise<number> {
  const [{ used }] = await db.select({ used: count() }).from(triggers).where(eq(triggers.walletId, walletId));
  return used;
}
