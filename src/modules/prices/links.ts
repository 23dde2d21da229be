import type { Executor } from "../../platform/db/index.ts";

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

/**
 * Whether any payment refers to the price; a price with payments is expired instead of deleted.
 *
 * TO BE EXTENDED: there is no payments table yet, so no price has payments. The payments module
 * replaces the body with `select 1 from payments where price_id = $1 limit 1`.
 */
export async function priceHasPayments(_db: Executor, _priceId: string): Promise<boolean> {
  return false;
}
