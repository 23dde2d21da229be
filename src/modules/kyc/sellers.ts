import { and, eq } from "drizzle-orm";
import type { Executor } from "../../platform/db/index.ts";
import { isAppRecord } from "../../platform/http/app-record.ts";
import { AppError, notFound } from "../../platform/http/errors.ts";
import { kycs } from "./tables.ts";

/** What a seller's standing is decided on: their KYC record's mirror of the provider account. */
export interface SellerState {
  active: boolean;
  accountId: string | null;
  payoutsEnabled: boolean;
  capabilities: Record<string, string> | null;
  requirements: { currently_due?: string[]; past_due?: string[] } | null;
}

// Requirements in the words a seller's app can pass on (the widget shows the same list).
const NEEDS: [test: (requirement: string) => boolean, words: string][] = [
  [(r) => r === "tos_acceptance.date", "acceptance of the terms of service"],
  [(r) => r.includes("verification.additional_document"), "an additional document"],
  [(r) => r.includes("verification.document"), "an identity document"],
  [(r) => r.startsWith("individual.") || r.startsWith("business_profile."), "their personal details"],
  [(r) => r === "external_account", "a bank account for payouts"],
];

const wordsFor = (requirement: string) => NEEDS.find(([test]) => test(requirement))?.[1] ?? requirement;

/**
 * Whether a seller can receive transfers now, and if not what they still need. Payable means: the
 * app keeps them active, the provider made their account, and it reports payouts enabled (with
 * the `transfers` capability active when it reports capabilities). Charges on the seller's own
 * account are not needed: the platform takes the charge and transfers the seller's share.
 */
export function sellerStanding(seller: SellerState | null): { payable: boolean; needs: string[] } {
  if (!seller) return { payable: false, needs: ["a KYC record: the price's seller record was deleted"] };
  if (!seller.active) {
    return { payable: false, needs: ["to be reactivated: the app deactivated them (PATCH active: true)"] };
  }
  const transfers = seller.capabilities?.transfers ?? "active";
  if (seller.accountId && seller.payoutsEnabled && transfers === "active")
    return { payable: true, needs: [] };
  // Before the provider has been asked anything, everything onboarding asks for is still due.
  const due = seller.requirements
    ? [...(seller.requirements.past_due ?? []), ...(seller.requirements.currently_due ?? [])]
    : [
        "individual.first_name",
        "tos_acceptance.date",
        "external_account",
        "individual.verification.document",
      ];
  const needs = [...new Set(due.map(wordsFor))];
  if (!seller.accountId) {
    needs.unshift("to start onboarding in the KYC widget (no payout account yet)");
  } else if (needs.length === 0) {
    needs.push("the payment provider to enable their payouts again");
  }
  return { payable: false, needs };
}

/** The 409 a payment of a seller who cannot be paid gets: `seller_not_payable`, naming what they still need. */
export function sellerNotPayable(needs: string[]): AppError {
  return new AppError(
    "seller_not_payable",
    `The seller of this price cannot receive transfers yet; they still need ${needs.join(", ")}`,
  );
}

/**
 * For payments and prices: a seller can be paid only while the app keeps them active (PATCH
 * `active: false` stops new payments, docs/kyc.md) and the provider lets them receive transfers.
 * `lock` holds the record (for share) until the caller's transaction ends, so it is not deleted
 * under a payment being pointed at it.
 */
export async function requirePayableSeller(db: Executor, appId: string, kycId: string, lock = false) {
  const query = db
    .select({
      id: kycs.id,
      active: kycs.active,
      accountId: kycs.providerAccountId,
      payoutsEnabled: kycs.payoutsEnabled,
      capabilities: kycs.capabilities,
      requirements: kycs.requirements,
    })
    .from(kycs)
    .where(and(eq(kycs.appId, appId), eq(kycs.id, kycId)));
  const [seller] = lock ? await query.for("share") : await query;
  if (!seller) throw notFound("KYC");
  const standing = sellerStanding(seller as SellerState);
  if (!standing.payable) throw sellerNotPayable(standing.needs);
  return { kycId: seller.id, providerAccountId: seller.accountId };
}

/**
 * `deps.sellerAccounts` for payments: the seller's connected account, where their share is
 * transferred. Answered whatever the account's state: a transfer to a seller who lost their
 * payouts since the payment was made is refused by the provider, and the payment says why
 * (`failed-transfers`) rather than the share silently staying on the platform. Null: the record
 * has no account yet (onboarding unfinished); undefined: there is no such record.
 */
export async function sellerAccountOf(db: Executor, kycId: string): Promise<string | null | undefined> {
  const [row] = await db.select({ accountId: kycs.providerAccountId }).from(kycs).where(eq(kycs.id, kycId));
  return row ? row.accountId : undefined;
}

/** Whether `kycId` is a seller KYC record of the app: a price may be linked only to its app's own. */
export async function isSellerOfApp(db: Executor, appId: string, kycId: string): Promise<boolean> {
  return isAppRecord(db, kycs, appId, kycId);
}
