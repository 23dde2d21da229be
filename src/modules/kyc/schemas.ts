import { type Static, Type } from "typebox";
import { AppAndIdParams } from "../../platform/http/params.ts";
import { nameSchemas, withExamples } from "../../platform/http/schema-docs.ts";
import { Body, Nullable, Timestamp } from "../../platform/http/schemas.ts";

// The shapes the interface leaves open, modelled on Stripe Connect's account object.
export const PayoutSchedule = Type.Object(
  {
    interval: Type.Union(
      [Type.Literal("manual"), Type.Literal("daily"), Type.Literal("weekly"), Type.Literal("monthly")],
      { description: "How often the balance is paid out" },
    ),
    delay_days: Type.Integer({ description: "Days a payment waits before it is paid out" }),
    weekly_anchor: Nullable(Type.String({ description: "Day of the week of weekly payouts" })),
    monthly_anchor: Nullable(Type.Integer({ description: "Day of the month of monthly payouts" })),
  },
  { description: "When the seller's balance is paid out" },
);

const CapabilityStatus = Type.Union(
  [Type.Literal("active"), Type.Literal("inactive"), Type.Literal("pending")],
  {
    description: "The capability's status at the provider",
  },
);
export const Capabilities = Type.Object(
  {
    card_payments: Type.Optional(CapabilityStatus),
    transfers: Type.Optional(CapabilityStatus),
  },
  {
    additionalProperties: CapabilityStatus,
    description: "Capability name to status; `card_payments` and `transfers` are the two requested",
  },
);

export const RequiredDocument = Type.Object(
  {
    requirement: Type.String({
      description: "Provider requirement, e.g. `individual.verification.document`",
    }),
    kind: Type.Union([Type.Literal("identity_document"), Type.Literal("additional_document")], {
      description: "An identity document, or an additional one (e.g. proof of address)",
    }),
    status: Type.Union([Type.Literal("currently_due"), Type.Literal("past_due")], {
      description: "`currently_due`: needed now; `past_due`: late, payouts or charges may be off",
    }),
    error: Nullable(Type.String({ description: "Why an earlier upload was refused" })),
  },
  { description: "A document the provider asks the seller for" },
);

export const BankAccount = Type.Object(
  {
    id: Type.String({ description: "The provider's id of the bank account (`ba_…`)" }),
    bank_name: Nullable(Type.String({ description: "The bank's name, when the provider knows it" })),
    country: Type.String({ description: "Two-letter country code of the bank" }),
    currency: Type.String({ description: "Lower-case currency code paid out to the account" }),
    last4: Type.String({ description: "Last four digits; the full number is never answered" }),
    routing_number: Nullable(Type.String({ description: "The bank's routing number" })),
    status: Type.Union(
      [
        Type.Literal("new"),
        Type.Literal("validated"),
        Type.Literal("verified"),
        Type.Literal("verification_failed"),
        Type.Literal("errored"),
      ],
      { description: "The provider's verification status; `errored`: payouts to it failed" },
    ),
    default_for_currency: Type.Boolean({ description: "Whether payouts in its currency go to this account" }),
  },
  { description: "A payout bank account of the seller" },
);

export const Card = Type.Object(
  {
    id: Type.String({ description: "The provider's id of the card" }),
    brand: Type.String({ description: "The card's brand, e.g. `visa`" }),
    last4: Type.String({ description: "Last four digits; the full number is never answered" }),
    exp_month: Type.Integer({ description: "Expiry month, 1 to 12" }),
    exp_year: Type.Integer({ description: "Expiry year" }),
    country: Nullable(Type.String({ description: "Two-letter country code of the issuer" })),
    currency: Nullable(Type.String({ description: "Lower-case currency code paid out to the card" })),
  },
  { description: "A payout debit card of the seller" },
);

export const Requirements = Type.Object(
  {
    currently_due: Type.Array(Type.String(), { description: "Requirements needed now" }),
    eventually_due: Type.Array(Type.String(), { description: "Requirements needed later" }),
    past_due: Type.Array(Type.String(), { description: "Requirements already late" }),
    errors: Type.Array(
      Type.Object({
        requirement: Type.String({ description: "The requirement refused" }),
        code: Type.String({ description: "The provider's code for why" }),
        reason: Type.String({ description: "Why, in words" }),
      }),
      { description: "Requirements the provider refused, and why" },
    ),
    disabled_reason: Nullable(
      Type.String({ description: "Why the account is disabled; null when it is not" }),
    ),
  },
  { description: "What the provider still needs (extension)" },
);

export const KycApp = Type.Object(
  {
    id: Type.String({ description: "The app's id" }),
    name: Type.String({ description: "The app's name" }),
    type: Type.Union([Type.Literal("individual"), Type.Literal("marketplace")], {
      description: "`individual` or `marketplace`",
    }),
    status: Type.Literal("active", { description: "Always `active`: an app that exists can take KYC" }),
    use_explorer: Type.Boolean({ description: "Payments answer a transaction_url in the chain's explorer" }),
    created_at: Timestamp,
    updated_at: Timestamp,
    kyc_return_url: Nullable(Type.String({ description: "Where the widget sends the seller back" })),
    app_fee: Type.Number({ description: "Percent of each sale a marketplace app keeps" }),
  },
  { description: "The app of a KYC record, as the interface embeds it" },
);

const KycType = Type.Union([Type.Literal("app"), Type.Literal("app-user")], {
  description: "`app`: the app's own payout account; `app-user`: a marketplace seller (default)",
});
const AccountType = Type.Union([Type.Literal("custom"), Type.Literal("express"), Type.Literal("standard")], {
  description: "Connect account type; default `express`",
});

export const Kyc = Type.Object(
  {
    id: Type.String({ description: "The KYC record's id (`kyc_…`)" }),
    identifier: Type.String({ description: "The caller-chosen seller identifier, unique per app" }),
    edit_token: Type.String({ description: "Credential of the hosted widget `GET /kyc/{edit_token}`" }),
    type: KycType,
    account_type: AccountType,
    account_exists: Type.Boolean({
      description: "Whether the provider account exists yet (made by the first widget step)",
    }),
    country: Nullable(Type.String({ description: "Two-letter country code; null on a new record" })),
    email: Nullable(Type.String({ description: "The seller's email; null unless supplied" })),
    business_status: Type.Union(
      [Type.Literal("pending"), Type.Literal("completed"), Type.Literal("incomplete")],
      {
        description:
          "`pending` until details are submitted; `incomplete` while the provider needs more; `completed` once charges and payouts are enabled",
      },
    ),
    details_submitted: Type.Boolean({ description: "Whether the seller's details reached the provider" }),
    charges_enabled: Type.Boolean({ description: "Whether the provider lets the seller be charged for" }),
    payouts_enabled: Type.Boolean({ description: "Whether the provider pays the seller out" }),
    needs_documents: Type.Boolean({ description: "Whether a document is due now or eventually" }),
    payout_schedule: Nullable(PayoutSchedule),
    required_documents: Nullable(
      Type.Array(RequiredDocument, { description: "Documents the provider asks for; null on a new record" }),
    ),
    capabilities: Nullable(Capabilities),
    bank_accounts: Nullable(
      Type.Array(BankAccount, { description: "Payout bank accounts; null on a new record" }),
    ),
    cards: Nullable(Type.Array(Card, { description: "Payout cards; null on a new record" })),
    requirements: Nullable(Requirements),
    active: Type.Boolean({ description: "False stops new payments for prices linked to this seller" }),
    widget_url: Type.String({ description: "The hosted widget's address (extension)" }),
    account_id: Nullable(
      Type.String({
        description:
          "The seller's connected account at the provider (`acct_…`), where their transfers go; null until onboarding made it (extension)",
      }),
    ),
    app: KycApp,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: "A seller's KYC record: their identity checks and payout account at the provider" },
);
export type KycView = Static<typeof Kyc>;

export const KycEnvelope = Type.Object({ data: Kyc }, { description: "A KYC record, wrapped in `data`" });
export const KycListEnvelope = Type.Object(
  { data: Type.Array(Kyc, { description: "The page's KYC records" }) },
  { description: "KYC records, wrapped in `data`" },
);

export const CreateKycBody = Body({
  identifier: Type.String({ minLength: 2, maxLength: 1024, description: "Caller-chosen seller identifier" }),
  email: Type.Optional(
    Type.String({ format: "email", maxLength: 320, description: "Pre-filled in the widget" }),
  ),
  type: Type.Optional(KycType),
  account_type: Type.Optional(AccountType),
});

export const UpdateKycBody = Body({
  active: Type.Boolean({
    description: "false stops new payments for prices linked to this seller; true resumes them",
  }),
});

export const KycParams = AppAndIdParams("kyc_id", "The KYC record's id");

// A seller just created: what the interface says a new record holds.
withExamples(Kyc, {
  id: "kyc_01m87s3v8k4r2fjc23vtvkbtjs",
  identifier: "seller-4711",
  edit_token: "kyc_et_c2VsbGVyLTQ3MTEtZWRpdC10b2tlbi1leGFtcGxlMQ",
  type: "app-user",
  account_type: "express",
  account_exists: false,
  country: null,
  email: "seller@example.com",
  business_status: "pending",
  details_submitted: false,
  charges_enabled: false,
  payouts_enabled: false,
  needs_documents: true,
  payout_schedule: null,
  required_documents: null,
  capabilities: null,
  bank_accounts: null,
  cards: null,
  requirements: null,
  active: true,
  widget_url: "https://payments.example.com/kyc/kyc_et_c2VsbGVyLTQ3MTEtZWRpdC10b2tlbi1leGFtcGxlMQ",
  account_id: null,
  app: {
    id: "app_01m87s3v8h13edjthr38t9cfv8",
    name: "Ada's shop",
    type: "marketplace",
    status: "active",
    use_explorer: true,
    created_at: "2026-11-24T21:30:00.000Z",
    updated_at: "2026-11-24T21:30:00.000Z",
    kyc_return_url: "https://shop.example.com/sellers/done",
    app_fee: 5,
  },
  created_at: "2026-11-24T21:30:00.000Z",
  updated_at: "2026-11-24T21:30:00.000Z",
});
withExamples(CreateKycBody, { identifier: "seller-4711", email: "seller@example.com" });
withExamples(UpdateKycBody, { active: false });

// Named in the OpenAPI document (components.schemas), referenced wherever they appear.
nameSchemas({
  KycEnvelope,
  KycListEnvelope,
  PayoutSchedule,
  Capabilities,
  RequiredDocument,
  BankAccount,
  Card,
  Requirements,
  KycApp,
  Kyc,
});
