import Stripe from "stripe";
import type {
  AccountType,
  BankAccountInput,
  BankAccountSummary,
  CapabilityStatus,
  CardSummary,
  DocumentInput,
  IndividualDetails,
  KycProvider,
  PayoutSchedule,
  ProviderAccount,
} from "./types.ts";
import { ProviderRejection } from "./types.ts";

export interface StripeConnectSettings {
  secretKey: string;
  webhookSecret: string;
  /** Overrides for a stand-in server (tests); production leaves them unset. */
  host?: string;
  port?: number;
  protocol?: "http" | "https";
}

/** Maps Stripe's account object onto what a KYC record mirrors; only last four digits survive. */
function fromStripeAccount(account: Stripe.Account): ProviderAccount {
  const requirements = account.requirements;
  const schedule = account.settings?.payouts?.schedule;
  const external = account.external_accounts?.data ?? [];
  const bankAccounts: BankAccountSummary[] = [];
  const cards: CardSummary[] = [];
  for (const item of external) {
    if (item.object === "bank_account") {
      bankAccounts.push({
        id: item.id,
        bank_name: item.bank_name ?? null,
        country: item.country,
        currency: item.currency,
        last4: item.last4,
        routing_number: item.routing_number ?? null,
        status: item.status as BankAccountSummary["status"],
        default_for_currency: item.default_for_currency ?? false,
      });
    } else if (item.object === "card") {
      cards.push({
        id: item.id,
        brand: item.brand,
        last4: item.last4,
        exp_month: item.exp_month,
        exp_year: item.exp_year,
        country: item.country ?? null,
        currency: item.currency ?? null,
      });
    }
  }
  const capabilities: Record<string, CapabilityStatus> = {};
  for (const [name, status] of Object.entries(account.capabilities ?? {})) {
    if (typeof status === "string") capabilities[name] = status as CapabilityStatus;
  }
  const payoutSchedule: PayoutSchedule | null = schedule
    ? {
        interval: schedule.interval as PayoutSchedule["interval"],
        delay_days: schedule.delay_days,
        weekly_anchor: schedule.weekly_anchor ?? null,
        monthly_anchor: schedule.monthly_anchor ?? null,
      }
    : null;
  return {
    id: account.id,
    type: (account.type ?? "custom") as AccountType,
    country: account.country ?? null,
    email: account.email ?? null,
    details_submitted: account.details_submitted ?? false,
    charges_enabled: account.charges_enabled ?? false,
    payouts_enabled: account.payouts_enabled ?? false,
    requirements: {
      currently_due: requirements?.currently_due ?? [],
      eventually_due: requirements?.eventually_due ?? [],
      past_due: requirements?.past_due ?? [],
      errors: (requirements?.errors ?? []).map((e) => ({
        requirement: e.requirement,
        code: e.code,
        reason: e.reason,
      })),
      disabled_reason: requirements?.disabled_reason ?? null,
    },
    capabilities,
    payout_schedule: payoutSchedule,
    bank_accounts: bankAccounts,
    cards,
  };
}

/** Stripe Connect through the official SDK; input Stripe refuses becomes a ProviderRejection. */
export class StripeConnectProvider implements KycProvider {
  readonly id = "stripe";
  readonly onboardingOrigin = "https://connect.stripe.com";
  readonly #stripe: Stripe;
  readonly #webhookSecret: string;

  constructor(settings: StripeConnectSettings) {
    this.#stripe = new Stripe(settings.secretKey, {
      host: settings.host,
      port: settings.port,
      protocol: settings.protocol,
      // Jobs own retrying (with backoff, across restarts); the SDK must not retry on its own.
      maxNetworkRetries: 0,
      timeout: 20_000,
    });
    this.#webhookSecret = settings.webhookSecret;
  }

  async createAccount(
    input: { reference: string; type: AccountType; email: string | null; country: string },
    idempotencyKey: string,
  ) {
    const account = await this.#call(() =>
      this.#stripe.accounts.create(
        {
          type: input.type,
          country: input.country,
          email: input.email ?? undefined,
          metadata: { kyc_id: input.reference },
          ...(input.type === "standard"
            ? {}
            : { capabilities: { card_payments: { requested: true }, transfers: { requested: true } } }),
        },
        { idempotencyKey },
      ),
    );
    return fromStripeAccount(account);
  }

  async submitDetails(accountId: string, details: IndividualDetails, idempotencyKey: string) {
    const [year, month, day] = details.dob.split("-").map(Number);
    await this.#call(() =>
      this.#stripe.accounts.update(
        accountId,
        {
          business_type: "individual",
          email: details.email,
          individual: {
            first_name: details.first_name,
            last_name: details.last_name,
            email: details.email,
            dob: { day, month, year },
            address: {
              line1: details.address_line1,
              city: details.city,
              postal_code: details.postal_code,
              country: details.country,
            },
          },
          tos_acceptance: { date: Math.floor(Date.now() / 1000), ip: details.tos_ip },
        },
        { idempotencyKey },
      ),
    );
  }

  async addBankAccount(accountId: string, bank: BankAccountInput, idempotencyKey: string) {
    await this.#call(() =>
      this.#stripe.accounts.createExternalAccount(
        accountId,
        {
          external_account: {
            object: "bank_account",
            country: bank.country,
            currency: bank.currency,
            account_holder_name: bank.account_holder_name,
            account_holder_type: "individual",
            routing_number: bank.routing_number,
            account_number: bank.account_number,
          },
          default_for_currency: true,
        },
        { idempotencyKey },
      ),
    );
  }

  async uploadIdentityDocument(accountId: string, document: DocumentInput, idempotencyKey: string) {
    // The file is uploaded on the connected account itself (Stripe-Account header), then attached.
    const file = await this.#call(() =>
      this.#stripe.files.create(
        {
          purpose: "identity_document",
          file: { data: document.content, name: document.filename, type: document.content_type },
        },
        { stripeAccount: accountId, idempotencyKey: `${idempotencyKey}:file` },
      ),
    );
    await this.#call(() =>
      this.#stripe.accounts.update(
        accountId,
        { individual: { verification: { document: { front: file.id } } } },
        { idempotencyKey: `${idempotencyKey}:attach` },
      ),
    );
  }

  async retrieveAccount(accountId: string) {
    return fromStripeAccount(await this.#stripe.accounts.retrieve(accountId));
  }

  hostsOnboarding(type: AccountType) {
    // Stripe lets a platform fill in details through the API only for custom accounts.
    return type !== "custom";
  }

  async onboardingLink(accountId: string, urls: { refresh_url: string; return_url: string }) {
    const link = await this.#stripe.accountLinks.create({
      account: accountId,
      refresh_url: urls.refresh_url,
      return_url: urls.return_url,
      type: "account_onboarding",
    });
    return link.url;
  }

  /**
   * Verifies a webhook on its raw body (the signature covers the exact bytes) and answers the
   * account an `account.updated` event carries; other event types answer null.
   */
  parseWebhook(rawBody: Buffer, signature: string | undefined): ProviderAccount | null {
    if (!signature)
      throw new ProviderRejection("signature_missing", "The Stripe-Signature header is missing");
    let event: Stripe.Event;
    try {
      event = this.#stripe.webhooks.constructEvent(rawBody, signature, this.#webhookSecret);
    } catch {
      throw new ProviderRejection("signature_invalid", "The webhook signature does not verify");
    }
    if (event.type !== "account.updated") return null;
    return fromStripeAccount(event.data.object as Stripe.Account);
  }

  async #call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      // A 4xx other than rate limiting is Stripe refusing the input: retrying cannot help.
      const status = (error as { statusCode?: number }).statusCode;
      if (
        error instanceof Stripe.errors.StripeError &&
        status &&
        status >= 400 &&
        status < 500 &&
        status !== 429
      ) {
        throw new ProviderRejection(error.code ?? "invalid_request", error.message);
      }
      throw error;
    }
  }
}
