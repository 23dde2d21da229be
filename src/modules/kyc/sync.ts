import { eq, sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Tx } from "../../platform/db/index.ts";
import type { ProviderAccount } from "../../platform/providers/kyc/types.ts";
import { emitEvent as deliverEvent } from "../webhooks/events.ts";
import { emitEvent } from "./events.ts";
import type { KycRow } from "./presenters.ts";
import { kycs } from "./tables.ts";

type BusinessStatus = "pending" | "incomplete" | "completed";

const isDocument = (requirement: string) =>
  requirement.includes("verification.") && requirement.endsWith("document");

/** docs/decisions.md, section 10: completed once charges and payouts are enabled; incomplete once details were submitted. */
function businessStatusOf(account: ProviderAccount): BusinessStatus {
  if (account.charges_enabled && account.payouts_enabled) return "completed";
  return account.details_submitted ? "incomplete" : "pending";
}

/** What a KYC record mirrors of a provider account: documents asked for, last four digits only. */
function mirrorOf(account: ProviderAccount) {
  const { requirements } = account;
  const errorOf = (requirement: string) =>
    requirements.errors.find((e) => e.requirement === requirement)?.reason ?? null;
  const requiredDocuments = [
    ...requirements.past_due.map((r) => ({ requirement: r, status: "past_due" as const })),
    ...requirements.currently_due
      .filter((r) => !requirements.past_due.includes(r))
      .map((r) => ({ requirement: r, status: "currently_due" as const })),
  ]
    .filter((r) => isDocument(r.requirement))
    .map((r) => ({
      ...r,
      kind: r.requirement.includes("additional_document")
        ? ("additional_document" as const)
        : ("identity_document" as const),
      error: errorOf(r.requirement),
    }));
  const allDue = [...requirements.currently_due, ...requirements.past_due, ...requirements.eventually_due];
  return {
    accountExists: true,
    country: account.country,
    businessStatus: businessStatusOf(account),
    detailsSubmitted: account.details_submitted,
    chargesEnabled: account.charges_enabled,
    payoutsEnabled: account.payouts_enabled,
    needsDocuments: allDue.some(isDocument),
    payoutSchedule: account.payout_schedule,
    requiredDocuments,
    requirements,
    capabilities: account.capabilities,
    bankAccounts: account.bank_accounts.map((b) => ({ ...b, last4: b.last4.slice(-4) })),
    cards: account.cards.map((c) => ({ ...c, last4: c.last4.slice(-4) })),
  };
}

const WATCHED = [
  "businessStatus",
  "detailsSubmitted",
  "chargesEnabled",
  "payoutsEnabled",
  "needsDocuments",
] as const;

/**
 * Applies what the provider reports to the record (locked first, so a webhook and a job cannot
 * interleave) and records a `kyc.updated` event when anything a seller's standing depends on moved.
 */
export async function applyAccount(
  deps: Pick<Deps, "jobs" | "now" | "onSellerPayable">,
  tx: Tx,
  kycId: string,
  account: ProviderAccount,
  options: { now: Date; actionDone: boolean },
): Promise<KycRow | undefined> {
  const [current] = await tx.select().from(kycs).where(eq(kycs.id, kycId)).for("update");
  if (!current) return undefined;
  const mirror = mirrorOf(account);
  const [updated] = await tx
    .update(kycs)
    .set({
      ...mirror,
      email: current.email ?? account.email,
      providerAccountId: account.id,
      pendingActions: options.actionDone ? sql`greatest(${kycs.pendingActions} - 1, 0)` : undefined,
      updatedAt: options.now,
    })
    .where(eq(kycs.id, kycId))
    .returning();
  if (WATCHED.some((field) => current[field] !== updated[field])) {
    const payload = {
      kyc_id: current.id,
      identifier: current.identifier,
      previous_business_status: current.businessStatus,
      business_status: updated.businessStatus,
      details_submitted: updated.detailsSubmitted,
      charges_enabled: updated.chargesEnabled,
      payouts_enabled: updated.payoutsEnabled,
      needs_documents: updated.needsDocuments,
    };
    await emitEvent(tx, current.appId, "kyc.updated", payload);
    // Outbound webhooks: the edit token stays out of the payload, apps read it from the API.
    await deliverEvent(deps, tx, { appId: current.appId, type: "kyc.updated", data: payload });
  }
  // Payouts (re-)enabled: transfers that failed because the seller could not receive them go again.
  if (!current.payoutsEnabled && updated.payoutsEnabled) await deps.onSellerPayable(tx, current.id);
  return updated;
}
