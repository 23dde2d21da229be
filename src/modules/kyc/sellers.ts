import { and, eq } from "drizzle-orm";
import type { Executor } from "../../platform/db/index.ts";
import { AppError, notFound } from "../../platform/http/errors.ts";
import { kycs } from "./tables.ts";

/**
 * For payments and prices: a seller can be paid only while the app keeps them active (PATCH
 * `active: false` stops new payments, DECISIONS 10) and the provider lets them take charges.
 */
export async function requirePayableSeller(db: Executor, appId: string, kycId: string) {
  const [seller] = await db
    .select({
      id: kycs.id,
      active: kycs.active,
      chargesEnabled: kycs.chargesEnabled,
      accountId: kycs.providerAccountId,
    })
    .from(kycs)
    .where(and(eq(kycs.appId, appId), eq(kycs.id, kycId)));
  if (!seller) throw notFound("KYC");
  if (!seller.active) throw new AppError("conflict", "The seller is deactivated: no new payments");
  if (!seller.chargesEnabled) throw new AppError("conflict", "The seller has not completed KYC yet");
  return { kycId: seller.id, providerAccountId: seller.accountId };
}

/**
 * `deps.sellerAccounts` for payments: the seller's connected account, where their share is
 * transferred. Answered even while payouts are not enabled yet, so the transfer fails and is
 * retried (`failed-transfers`) rather than the share silently staying on the platform.
 */
export async function sellerAccountOf(db: Executor, kycId: string): Promise<string | undefined> {
  const [row] = await db.select({ accountId: kycs.providerAccountId }).from(kycs).where(eq(kycs.id, kycId));
  return row?.accountId ?? undefined;
}
