import { type Static, Type } from "typebox";
import { Body, Nullable, nameSchemas, Timestamp } from "../../platform/http/schemas.ts";

// The shapes the interface leaves open, modelled on Stripe Connect's account object.
export const PayoutSchedule = Type.Object(
  {
    interval: Type.Union([
      Type.Literal("manual"),
      Type.Literal("daily"),
      Type.Literal("weekly"),
      Type.Literal("monthly"),
    ]),
    delay_days: Type.Integer({ description: "Days a payment waits before it is paid out" }),
    weekly_anchor: Nullable(Type.String({ description: "Day of the week of weekly payouts" })),
    monthly_anchor: Nullable(Type.Integer({ description: "Day of the month of monthly payouts" })),
  },
  { description: "When the seller's balance is paid out" },
);

const CapabilityStatus = Type.Union([
  Type.Literal("active"),
  Type.Literal("inactive"),
  Type.Literal("pending"),
]);
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
    kind: Type.Union([Type.Literal("identity_document"), Type.Literal("additional_document")]),
    status: Type.Union([Type.Literal("currently_due"), Type.Literal("past_due")]),
    error: Nullable(Type.String({ description: "Why an earlier upload was refused" })),
  },
  {},
);

export const BankAccount = Type.Object(
  {
    id: Type.String(),
    bank_name: Nullable(Type.String()),
    country: Type.String(),
    currency: Type.String(),
    last4: Type.String({ description: "Last four digits; the full number is never answered" }),
    routing_number: Nullable(Type.String()),
    status: Type.Union([
      Type.Literal("new"),
      Type.Literal("validated"),
      Type.Literal("verified"),
      Type.Literal("verification_failed"),
      Type.Literal("errored"),
    ]),
    default_for_currency: Type.Boolean(),
  },
  {},
);

export const Card = Type.Object(
  {
    id: Type.String(),
    brand: Type.String(),
    last4: Type.String({ description: "Last four digits; the full number is never answered" }),
    exp_month: Type.Integer(),
    exp_year: Type.Integer(),
    country: Nullable(Type.String()),
    currency: Nullable(Type.String()),
  },
  {},
);

export const Requirements = Type.Object(
  {
    currently_due: Type.Array(Type.String()),
    eventually_due: Type.Array(Type.String()),
    past_due: Type.Array(Type.String()),
    errors: Type.Array(
      Type.Object({ requirement: Type.String(), code: Type.String(), reason: Type.String() }),
    ),
    disabled_reason: Nullable(Type.String()),
  },
  { description: "What the provider still needs (extension)" },
);

export const KycApp = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.Union([Type.Literal("individual"), Type.Literal("marketplace")]),
  status: Type.Literal("active", { description: "Always `active`: an app that exists can take KYC" }),
  use_explorer: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
  kyc_return_url: Nullable(Type.String()),
  app_fee: Type.Number(),
});

const KycType = Type.Union([Type.Literal("app"), Type.Literal("app-user")], {
  description: "`app`: the app's own payout account; `app-user`: a marketplace seller (default)",
});
const AccountType = Type.Union([Type.Literal("custom"), Type.Literal("express"), Type.Literal("standard")], {
  description: "Connect account type; default `express`",
});

export const Kyc = Type.Object({
  id: Type.String(),
  identifier: Type.String(),
  edit_token: Type.String({ description: "Credential of the hosted widget `GET /kyc/{edit_token}`" }),
  type: KycType,
  account_type: AccountType,
  account_exists: Type.Boolean(),
  country: Nullable(Type.String()),
  email: Nullable(Type.String()),
  business_status: Type.Union([
    Type.Literal("pending"),
    Type.Literal("completed"),
    Type.Literal("incomplete"),
  ]),
  details_submitted: Type.Boolean(),
  charges_enabled: Type.Boolean(),
  payouts_enabled: Type.Boolean(),
  needs_documents: Type.Boolean(),
  payout_schedule: Nullable(PayoutSchedule),
  required_documents: Nullable(Type.Array(RequiredDocument)),
  capabilities: Nullable(Capabilities),
  bank_accounts: Nullable(Type.Array(BankAccount)),
  cards: Nullable(Type.Array(Card)),
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
});
export type KycView = Static<typeof Kyc>;

export const KycEnvelope = Type.Object({ data: Kyc });
export const KycListEnvelope = Type.Object({ data: Type.Array(Kyc) });

export const CreateKycBody = Body({
  identifier: Type.String({ minLength: 2, maxLength: 1024, description: "Caller-chosen seller identifier" }),
  email: Type.Optional(
    Type.String({ format: "email", maxLength: 320, description: "Pre-filled in the widget" }),
  ),
  type: Type.Optional(KycType),
  account_type: Type.Optional(AccountType),
});

export const UpdateKycBody = Body({ active: Type.Boolean() });

export const KycParams = Type.Object({
  app_id: Type.String({ maxLength: 64 }),
  kyc_id: Type.String({ maxLength: 64 }),
});

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
