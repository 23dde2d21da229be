import { eq } from "drizzle-orm";
import type { Executor } from "../../platform/db/index.ts";
import { payments } from "../payments/tables.ts";

export interface LinkedRecords {
  triggerId?: string | null;
  kycId?: string | null;
}

/**
 * Checks that a price's trigger and seller KYC record belong to the price's app.
 *
 * TO BE COMPLETED AT MERGE: the triggers and KYC tables are being built in parallel, so no such
 * record can be looked up yet and the ids are stored as given. When those modules land, this
 * function selects each given id with `app_id = appId` and throws `invalid("/body/trigger_id" |
 * "/body/kyc_id", "…not found in this app")` when it is missing. Every write of a price calls it.
 */
export async function checkLinkedRecords(
  _db: Executor,
  _appId: string,
  _links: LinkedRecords,
): Promise<void> {}

/** Whether any payment refers to the price; a price with payments is expired instead of deleted. */
export async function priceHasPayments(db: Executor, priceId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.priceId, priceId))
    .limit(1);
  return row !== undefined;
}
