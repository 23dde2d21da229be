/**
 * The contract every KYC (Connect-like) provider implements. Calls that change provider state take
 * an idempotency key, so a job retried after a crash never repeats an effect.
 */
export type AccountType = "custom" | "express" | "standard";
export type CapabilityStatus = "active" | "inactive" | "pending";

export interface PayoutSchedule {
  interval: "manual" | "daily" | "weekly" | "monthly";
  delay_days: number;
  weekly_anchor: string | null;
  monthly_anchor: number | null;
}

export interface BankAccountSummary {
  id: string;
  bank_name: string | null;
  country: string;
  currency: string;
  last4: string;
  routing_number: string | null;
  status: "new" | "validated" | "verified" | "verification_failed" | "errored";
  default_for_currency: boolean;
}

export interface CardSummary {
  id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  country: string | null;
  currency: string | null;
}

export interface Requirements {
  currently_due: string[];
  eventually_due: string[];
  past_due: string[];
  errors: { requirement: string; code: string; reason: string }[];
  disabled_reason: string | null;
}

/** A provider account as the provider reports it; what a KYC record mirrors. */
export interface ProviderAccount {
  id: string;
  type: AccountType;
  country: string | null;
  email: string | null;
  details_submitted: boolean;
  charges_enabled: boolean;
  payouts_enabled: boolean;
  requirements: Requirements;
  capabilities: Record<string, CapabilityStatus>;
  payout_schedule: PayoutSchedule | null;
  bank_accounts: BankAccountSummary[];
  cards: CardSummary[];
}

export interface IndividualDetails {
  first_name: string;
  last_name: string;
  email: string;
  dob: string; // YYYY-MM-DD
  country: string; // ISO 3166-1 alpha-2
  address_line1: string;
  city: string;
  postal_code: string;
  /** The seller accepted the provider's terms of service, from this IP. */
  tos_ip: string;
}

export interface BankAccountInput {
  country: string;
  currency: string;
  account_holder_name: string;
  routing_number: string;
  account_number: string;
}

export interface DocumentInput {
  filename: string;
  content_type: string;
  content: Buffer;
}

export interface KycProvider {
  readonly id: string;
  createAccount(
    input: { reference: string; type: AccountType; email: string | null; country: string },
    idempotencyKey: string,
  ): Promise<ProviderAccount>;
  submitDetails(accountId: string, details: IndividualDetails, idempotencyKey: string): Promise<void>;
  addBankAccount(accountId: string, bank: BankAccountInput, idempotencyKey: string): Promise<void>;
  uploadIdentityDocument(accountId: string, document: DocumentInput, idempotencyKey: string): Promise<void>;
  retrieveAccount(accountId: string): Promise<ProviderAccount>;
  /**
   * Whether the provider collects this account type's details on its own hosted pages (Stripe
   * express and standard accounts), rather than through the API from our widget.
   */
  hostsOnboarding(type: AccountType): boolean;
  /** Where hosted onboarding lives, so the widget's CSP lets its form lead there. */
  readonly onboardingOrigin: string | null;
  /** A provider-hosted onboarding link (Connect account links), where the provider offers one. */
  onboardingLink(accountId: string, urls: { refresh_url: string; return_url: string }): Promise<string>;
}

/** A provider call that failed for a reason retrying will not fix (a declined input). */
export class ProviderRejection extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}
