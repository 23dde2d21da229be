import type { Executor } from "../../platform/db/index.ts";
import { invalid } from "../../platform/http/errors.ts";
import { isSellerOfApp } from "../kyc/sellers.ts";
import { isTriggerOfApp } from "../triggers/of-app.ts";

export interface LinkedRecords {
  triggerId?: string | null;
  kycId?: string | null;
}

/**
 * Checks that a price's trigger and seller KYC record belong to the price's app, each asked of the
 * module that owns it. Every write of a price calls it. Another app's trigger or KYC record reads
 * as unknown.
 */
export async function checkLinkedRecords(db: Executor, appId: string, links: LinkedRecords): Promise<void> {
  if (links.triggerId && !(await isTriggerOfApp(db, appId, links.triggerId))) {
    throw invalid("/body/trigger_id", "is not a trigger of this app");
  }
  if (links.kycId && !(await isSellerOfApp(db, appId, links.kycId))) {
    throw invalid("/body/kyc_id", "is not a seller KYC record of this app");
  }
}
