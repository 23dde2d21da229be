import { and, eq } from "drizzle-orm";
import type { Executor } from "../../platform/db/index.ts";
import { invalid } from "../../platform/http/errors.ts";
import { kycs } from "../kyc/tables.ts";
import { payments } from "../payments/tables.ts";
import { triggers } from "../triggers/tables.ts";

export interface LinkedRecords {
  triggerId?: string | null;
  kycId?: string | null;
}

/**
 * Checks that a price's trigger and seller KYC record belong to the price's app. Every write of a
 * price calls it. Another app's trigger or KYC record reads as unknown.
 */
export async function checkLinkedRecords(db: Executor, appId: string, links: LinkedRecords): Promise<void> {
  if (links.triggerId) {
    const [trigger] = await db
      .select({ id: triggers.id })
      .from(triggers)
      .where(and(eq(triggers.appId, appId), eq(triggers.id, links.triggerId)));
    if (!trigger) throw invalid("/body/trigger_id", "is not a trigger of this app");
  }
  if (links.kycId) {
    const [kyc] = await db
      .select({ id: kycs.id })
      .from(kycs)
      .where(and(eq(kycs.appId, appId), eq(kycs.id, links.kycId)));
    if (!kyc) throw invalid("/body/kyc_id", "is not a seller KYC record of this app");
  }
}

/** Whether any payment refers to the price; a price with payments is expired instead of deleted. */
export async function priceHasPayments(db: Executor, priceId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.priceId, priceId))
    .limit(1);
  return row !== undefined;
}
