import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database, Tx } from "../../db/index.ts";
import { kycSandboxAccounts } from "./sandbox-tables.ts";
import type {
  AccountType,
  BankAccountInput,
  BankAccountSummary,
  CapabilityStatus,
  DocumentInput,
  IndividualDetails,
  KycProvider,
  PayoutSchedule,
  ProviderAccount,
  Requirements,
} from "./types.ts";

/**
 * Stripe's documented test numbers, so the sandbox and Stripe test mode take the same inputs:
 * routing 110000000 with account 000123456789 succeeds; 000111111113 is a closed account and
 * 000111111116 an account that does not exist; any other routing number is refused.
 */
const SANDBOX_ROUTING_NUMBER = "110000000";
const FAILING_ACCOUNTS: Record<string, { code: string; reason: string }> = {
  "000111111113": { code: "account_closed", reason: "The bank account is closed" },
  "000111111116": { code: "no_account", reason: "The bank account does not exist" },
};
/** A document whose file name contains this word fails verification, like Stripe's failure test file. */
const SANDBOX_FAILING_DOCUMENT = "failure";

/** The sellers' test payout accounts and documents, with what each does, for the API's testing guide. */
export function sandboxSellerTestInputs(): {
  routingNumber: string;
  bankAccounts: { value: string; outcome: string }[];
  failingDocument: string;
} {
  return {
    routingNumber: SANDBOX_ROUTING_NUMBER,
    bankAccounts: [
      {
        value: "any other account number",
        outcome: "Verified: the seller can be paid once the rest is done",
      },
      ...Object.entries(FAILING_ACCOUNTS).map(([value, { code, reason }]) => ({
        value,
        outcome: `Refused, \`${code}\`: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}; payouts stay off`,
      })),
    ],
    failingDocument: SANDBOX_FAILING_DOCUMENT,
  };
}

interface SandboxState {
  type: AccountType;
  country: string;
  email: string | null;
  individual: Omit<IndividualDetails, "tos_ip"> | null;
  tos_accepted: boolean;
  document: { filename: string; verified: boolean } | null;
  bank_accounts: (BankAccountSummary & { error: { code: string; reason: string } | null })[];
  payout_schedule: PayoutSchedule;
  /** Payouts paused by the sandbox's operator (`pausePayouts`), as a provider's risk team may pause them. */
  payouts_paused?: boolean;
  /** Idempotency keys already applied: a retried call is answered without a second effect. */
  applied: string[];
}

const DETAIL_REQUIREMENTS = [
  "individual.first_name",
  "individual.last_name",
  "individual.dob",
  "individual.address.line1",
  "individual.address.city",
  "individual.address.postal_code",
  "tos_acceptance.date",
];
const DOCUMENT = "individual.verification.document";

/** Derives what the provider reports from its state: the same state always reads the same. */
function snapshot(id: string, s: SandboxState): ProviderAccount {
  const due: string[] = [];
  const errors: Requirements["errors"] = [];
  const detailsDone = s.individual !== null && s.tos_accepted;
  if (!detailsDone) due.push(...DETAIL_REQUIREMENTS);
  if (!s.email) due.push("individual.email");
  // Like Connect, identity verification is requested once there are details to verify.
  const documentDone = s.document?.verified === true;
  if (detailsDone && !documentDone) due.push(DOCUMENT);
  if (s.document && !s.document.verified) {
    errors.push({
      requirement: DOCUMENT,
      code: "verification_document_failed",
      reason: "The document could not be verified",
    });
  }
  const goodBank = s.bank_accounts.some((b) => b.error === null);
  if (!goodBank) due.push("external_account");
  for (const bank of s.bank_accounts) {
    if (bank.error) errors.push({ requirement: "external_account", ...bank.error });
  }
  const cardPayments: CapabilityStatus =
    detailsDone && documentDone && s.email ? "active" : detailsDone ? "pending" : "inactive";
  const transfers: CapabilityStatus = s.payouts_paused
    ? "inactive"
    : cardPayments === "active" && goodBank
      ? "active"
      : detailsDone
        ? "pending"
        : "inactive";
  return {
    id,
    type: s.type,
    country: s.country,
    email: s.email,
    details_submitted: detailsDone,
    charges_enabled: cardPayments === "active",
    payouts_enabled: transfers === "active",
    requirements: {
      currently_due: due,
      eventually_due: detailsDone ? due : [...due, DOCUMENT],
      past_due: [],
      errors,
      disabled_reason: s.payouts_paused ? "platform_paused" : due.length > 0 ? "requirements.past_due" : null,
    },
    capabilities: { card_payments: cardPayments, transfers },
    payout_schedule: s.payout_schedule,
    bank_accounts: s.bank_accounts.map(({ error: _error, ...bank }) => bank),
    cards: [],
  };
}

function digest(text: string, length: number): string {
  return createHash("sha256").update(text).digest("hex").slice(0, length);
}

/** A stateful, deterministic Connect-like provider; its accounts live in its own table. */
export class SandboxKycProvider implements KycProvider {
  readonly id = "sandbox";
  readonly onboardingOrigin = null;
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  async createAccount(
    input: {
      reference: string;
      type: AccountType;
      email: string | null;
      country: string;
    },
    _idempotencyKey: string,
  ) {
    // The id is derived from the caller's reference, so a retried create finds the same account:
    // the reference does the idempotency key's work.
    const id = `acct_sbx_${digest(input.reference, 16)}`;
    const state: SandboxState = {
      type: input.type,
      country: input.country,
      email: input.email,
      individual: null,
      tos_accepted: false,
      document: null,
      bank_accounts: [],
      payout_schedule: { interval: "daily", delay_days: 2, weekly_anchor: null, monthly_anchor: null },
      applied: [],
    };
    await this.#db.insert(kycSandboxAccounts).values({ id, state }).onConflictDoNothing();
    return this.retrieveAccount(id);
  }

  async submitDetails(accountId: string, details: IndividualDetails, key: string) {
    await this.#change(accountId, key, (s) => {
      const { tos_ip: _ip, ...individual } = details;
      s.individual = individual;
      s.email = details.email;
      s.country = details.country;
      s.tos_accepted = true;
    });
  }

  async addBankAccount(accountId: string, bank: BankAccountInput, key: string) {
    await this.#change(accountId, key, (s) => {
      const error =
        bank.routing_number !== SANDBOX_ROUTING_NUMBER
          ? { code: "routing_number_invalid", reason: "Use the test routing number 110000000" }
          : (FAILING_ACCOUNTS[bank.account_number] ?? null);
      if (!error) for (const b of s.bank_accounts) b.default_for_currency = false;
      s.bank_accounts.push({
        id: `ba_sbx_${digest(`${accountId}:${key}`, 16)}`,
        bank_name: "SANDBOX TEST BANK",
        country: bank.country,
        currency: bank.currency,
        last4: bank.account_number.slice(-4),
        routing_number: bank.routing_number,
        status: error ? "errored" : "verified",
        default_for_currency: !error,
        error,
      });
    });
  }

  async uploadIdentityDocument(accountId: string, document: DocumentInput, key: string) {
    await this.#change(accountId, key, (s) => {
      s.document = {
        filename: document.filename,
        verified: document.content.length > 0 && !document.filename.includes(SANDBOX_FAILING_DOCUMENT),
      };
    });
  }

  /**
   * Pauses (or resumes) an account's payouts: transfers to it are refused until resumed, the way
   * a provider pauses an account it has doubts about. A sandbox-only test control.
   */
  async pausePayouts(accountId: string, paused: boolean, key: string) {
    await this.#change(accountId, key, (s) => {
      s.payouts_paused = paused;
    });
  }

  async retrieveAccount(accountId: string) {
    const account = await this.findAccount(accountId);
    if (!account) throw new Error(`Sandbox account ${accountId} does not exist`);
    return account;
  }

  /**
   * The account, or undefined when the sandbox never made it: what the payments sandbox asks before
   * a transfer, inside its own transaction (`db`), since PGlite runs one transaction at a time.
   */
  async findAccount(accountId: string, db: Database | Tx = this.#db): Promise<ProviderAccount | undefined> {
    const [row] = await db.select().from(kycSandboxAccounts).where(eq(kycSandboxAccounts.id, accountId));
    return row ? snapshot(row.id, row.state as SandboxState) : undefined;
  }

  hostsOnboarding(_type: AccountType) {
    return false;
  }

  async onboardingLink(accountId: string, urls: { refresh_url: string; return_url: string }) {
    // The sandbox has no hosted onboarding of its own: our widget is the onboarding.
    return `${urls.return_url}${urls.return_url.includes("?") ? "&" : "?"}account=${accountId}`;
  }

  async #change(accountId: string, key: string, apply: (state: SandboxState) => void) {
    await this.#db.transaction(async (tx: Tx) => {
      const [row] = await tx
        .select()
        .from(kycSandboxAccounts)
        .where(eq(kycSandboxAccounts.id, accountId))
        .for("update");
      if (!row) throw new Error(`Sandbox account ${accountId} does not exist`);
      const state = row.state as SandboxState;
      if (state.applied.includes(key)) return;
      apply(state);
      state.applied.push(key);
      await tx
        .update(kycSandboxAccounts)
        .set({ state, updatedAt: new Date() })
        .where(eq(kycSandboxAccounts.id, accountId));
    });
  }
}
