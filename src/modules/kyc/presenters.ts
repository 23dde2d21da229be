import { bpsToPercent } from "../../platform/money/percent.ts";
import type { Requirements as ProviderRequirements } from "../../platform/providers/kyc/types.ts";
import type { AppRow } from "../apps/queries.ts";
import type { KycView } from "./schemas.ts";
import type { Sealer } from "./sealing.ts";
import type { kycs } from "./tables.ts";

export type KycRow = typeof kycs.$inferSelect;
export type { AppRow };

export function widgetUrl(publicUrl: string, token: string) {
  return `${publicUrl}/kyc/${token}`;
}

export function presentKyc(row: KycRow, app: AppRow, sealer: Sealer, publicUrl: string): KycView {
  const editToken = sealer.open(row.editTokenSealed, row.id);
  return {
    id: row.id,
    identifier: row.identifier,
    edit_token: editToken,
    type: row.type as KycView["type"],
    account_type: row.accountType as KycView["account_type"],
    account_exists: row.accountExists,
    country: row.country,
    email: row.email,
    business_status: row.businessStatus as KycView["business_status"],
    details_submitted: row.detailsSubmitted,
    charges_enabled: row.chargesEnabled,
    payouts_enabled: row.payoutsEnabled,
    needs_documents: row.needsDocuments,
    payout_schedule: row.payoutSchedule as KycView["payout_schedule"],
    required_documents: row.requiredDocuments as KycView["required_documents"],
    capabilities: row.capabilities as KycView["capabilities"],
    bank_accounts: row.bankAccounts as KycView["bank_accounts"],
    cards: row.cards as KycView["cards"],
    requirements: row.requirements as ProviderRequirements | null,
    active: row.active,
    widget_url: widgetUrl(publicUrl, editToken),
    account_id: row.providerAccountId,
    app: {
      id: app.id,
      name: app.name,
      type: app.type as KycView["app"]["type"],
      status: "active",
      use_explorer: app.useExplorer,
      created_at: app.createdAt.toISOString(),
      updated_at: app.updatedAt.toISOString(),
      kyc_return_url: app.kycReturnUrl,
      app_fee: bpsToPercent(app.appFeeBps),
    },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
