import { and, eq } from "drizzle-orm";
import type { Executor } from "../../platform/db/index.ts";
import { invalid } from "../../platform/http/errors.ts";
import { triggers } from "../triggers/tables.ts";

export interface LinkedRecords {
  triggerId?: string | null;
  kycId?: string | null;
}

/**
 * Checks that a price's trigger and seller KYC record belong to the price's app.
 *
 * Every write of a price calls it. Another app's trigger reads as unknown.
 *
 * TO BE COMPLETED AT MERGE: the KYC table is being built in parallel, so `kyc_id` is stored as
 * given. When it lands, select the id with `app_id = appId` as for the trigger and throw
 * `invalid("/body/kyc_id", "…")` when it is missing.
 */
export async function checkLinkedRecords(db: Executor, appId: string, links: LinkedRecords): Promise<void> {
  if (links.triggerId) {
    const [trigger] = await db
      .select({ id: triggers.id })
      .from(triggers)
      .where(and(eq(triggers.appId, appId), eq(triggers.id, links.triggerId)));
    if (!trigger) throw invalid("/body/trigger_id", "is not a trigger of this app");
  }
}

/**
 * Whether any payment refers to the price; a price with payments is expired instead of deleted.
 *
 * TO BE EXTENDED: there is no payments table yet, so no price has payments. The payments module
 * replaces the body with `select 1 from payments where price_id = $1 limit 1`.
 */
export async function priceHasPayments(_db: Executor, _priceId: string): Promise<boolean> {
  return false;
}
