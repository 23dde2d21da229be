import { Type } from "typebox";
import { oneOf } from "../../platform/http/literals.ts";
import { pageFields } from "../../platform/http/pagination.ts";
import { AppAndIdParams } from "../../platform/http/params.ts";
import { exampleOf, nameSchemas, withExamples } from "../../platform/http/schema-docs.ts";
import { Body, Nullable, Timestamp } from "../../platform/http/schemas.ts";
import { Amount, PriceItem as FeePreview, usBankAccountNumbers } from "../../platform/money/schemas.ts";
import { App } from "../apps/schemas.ts";
import { Transfer } from "../ledger/schemas.ts";
import { Price } from "../prices/schemas.ts";
import { DynamicAmount, NextAction, transactionFields } from "./payment-fields.ts";
import { PAYMENT_STATUSES } from "./tables.ts";

const Status = oneOf(PAYMENT_STATUSES, {
  description:
    "Where the payment is: `pending` (not yet authorised), `hold` (authorised; the contract call runs), `paid`, " +
    "`failed`, `failed-captured` (charged but the call failed), `failed-transfers` (the seller's transfer failed), " +
    "`refunded`, `cancelled` (docs/payments.md)",
});
const Method = Type.Union([Type.Literal("card"), Type.Literal("us_bank_account")], {
  description: "How the shopper pays: `card` or `us_bank_account` (a bank debit)",
});

const Conversion = Type.Object(
  {
    currency: Type.String({ description: "The price's own currency" }),
    exchange: Type.Number({
      description: "The rate: charge-currency units per unit of the price's currency",
    }),
    converted_amount: Amount("The price in the charge currency (the top-level `amount`)"),
    converted_amount_net: Amount("The seller's share in the charge currency"),
    amount: Amount("The price in its own currency"),
    amount_total: Amount("The charge converted back to the price's currency (never below the price)"),
    amount_transaction_fee: Amount("amount_total - amount, in the price's currency"),
    amount_app_transaction_fee: Amount("What is left after the provider fee, in the price's currency"),
    amount_platform: Amount("The platform's share, in the price's currency"),
    amount_seller: Amount("The seller's share, in the price's currency"),
    amount_app: Amount("The app's share (marketplace apps only), in the price's currency"),
  },
  { description: "The fee breakdown in the price's own currency, when it differs from the charge currency" },
);

export const PriceItem = Type.Object(
  {
    currency: Type.String({ description: "The charge currency" }),
    provider_min_amount_fee: Amount("The provider's minimum fee, in the charge currency"),
    provider_processing_fee_percent: Type.Number({
      description: "The provider's fee, in percent of the total (2.9 = 2.9%)",
    }),
    platform_fee: Type.Number({ description: "The platform's fee, in percent of the price (1 = 1%)" }),
    app_fee: Type.Number({
      description: "The app's fee applied (0 for an individual app), in percent of the price",
    }),
    app_type: Type.String({ description: "The app's type: individual or marketplace" }),
    amount: Amount("The price, in the charge currency"),
    amount_total: Amount("What the shopper is charged: the price plus the provider's fee"),
    amount_transaction_fee: Amount("amount_total - amount"),
    amount_app_transaction_fee: Amount("What is left after the provider fee (always 0 in whole minor units)"),
    amount_platform: Amount("The platform's share"),
    amount_seller: Amount("The seller's share: the price less the platform's and the app's"),
    amount_app: Amount("The app's share (marketplace apps only)"),
    processing_fee_amount: Amount(
      "The provider's fee: the larger of its minimum and its percent of the total",
    ),
    conversion: Nullable(Conversion),
  },
  { description: "The fee split fixed when the payment was created, in the charge currency (docs/fees.md)" },
);

const ChainOutput = (chain: string) =>
  Nullable(
    Type.Object(
      {
        output: Type.Record(Type.String(), Type.Unknown(), {
          description:
            "What the chain reported for the call (e.g. EVM: block number, gas used; NEAR: return value and logs; Solana: slot)",
        }),
      },
      { description: `The ${chain} call's outcome; null unless the trigger ran on ${chain}` },
    ),
  );

export const Payment = Type.Object(
  {
    id: Type.String({ description: "The payment's id (`pay_…`)" }),
    status: Status,
    final_amount: Amount("What the shopper is charged, in the charge currency"),
    amount_refunded: Amount("What has been refunded so far, in the charge currency (partial refunds add up)"),
    transfers: Type.Array(Transfer, { description: "The seller's transfers and their reversals" }),
    payment_provider: Method,
    trigger_data_input: Type.Object(
      {
        params_data_input: Type.Record(Type.String(), Type.Unknown(), {
          description: "The trigger's parameters the payment was created with, keyed by name",
        }),
      },
      { description: "Input for the price's trigger, run once the payment is paid" },
    ),
    ...transactionFields,
    price_item: PriceItem,
    transaction_response: Type.Object(
      {
        error: Nullable(
          Type.Record(Type.String(), Type.Unknown(), {
            description:
              "The last failure (a decline, a returned debit, a failed call): `code`, `message`, …; null when none",
          }),
        ),
        near: ChainOutput("near"),
        evm: ChainOutput("evm"),
        wax: ChainOutput("wax"),
        solana: ChainOutput("solana"),
      },
      { description: "What the provider and the chain answered" },
    ),
    confirmation_status: Type.Object(
      {
        average_seconds: Type.Number({ description: "Typical seconds the chain takes to confirm" }),
        progress: Type.Number({ description: "0 to 100" }),
        required_confirmations: Type.Number({
          description: "Confirmations needed before the payment counts as confirmed",
        }),
        confirmations: Type.Number({ description: "Confirmations seen so far" }),
        confirmed: Type.Boolean({ description: "Whether the chain call is confirmed" }),
      },
      { description: "How far the chain has confirmed the contract call" },
    ),
    app: App,
    price: Price,
    payment_token: Nullable(
      Type.String({ description: "For the shopper's page; answered once, when the payment is created" }),
    ),
    next_action: NextAction,
    shopper_email: Nullable(Type.String({ description: "Where the receipt is sent" })),
    cancelable: Type.Boolean({
      description:
        "Whether `POST …/cancel` would be taken now: a pending payment not being authorised, or a card hold whose contract call was never signed and whose capture is not asked for. Once a call is signed the chain's outcome decides, once the capture is asked for it goes through (docs/payments.md)",
    }),
    kyc_id: Nullable(
      Type.String({
        description:
          "The seller KYC record whose account receives the seller's share (the price's seller when the payment was made, " +
          "or the one the app pointed it at since: POST …/seller); null when there is no seller",
      }),
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: "A payment of a price through a payment provider, with its fee split and chain call" },
);

export const PaymentParams = AppAndIdParams("payment_id", "The payment's id");

export const ListPaymentsQuery = Type.Object(
  {
    ...pageFields,
    status: Type.Optional(Status),
    price_id: Type.Optional(Type.String({ maxLength: 64, description: "Only payments of this price" })),
    id_prefix: Type.Optional(
      Type.String({
        pattern: "^pay_[0-9a-z]{0,26}$",
        maxLength: 30,
        description: "Only payments whose id starts with this (`pay_01m8`): a pasted or half-remembered id",
      }),
    ),
    shopper_email: Type.Optional(
      Type.String({
        minLength: 3,
        maxLength: 254,
        description:
          "Only payments whose shopper email contains this text, case-insensitive (at least 3 characters)",
      }),
    ),
    currency: Type.Optional(
      Type.String({
        minLength: 3,
        maxLength: 12,
        description: "The charge currency the `amount[…]` bounds are in; required with them",
      }),
    ),
    "amount[gte]": Type.Optional(
      Type.String({
        pattern: "^[0-9]+(\\.[0-9]+)?$",
        maxLength: 40,
        description: "Only payments charging at least this much (a decimal in `currency`, fees included)",
      }),
    ),
    "amount[lte]": Type.Optional(
      Type.String({
        pattern: "^[0-9]+(\\.[0-9]+)?$",
        maxLength: 40,
        description: "Only payments charging at most this much (a decimal in `currency`, fees included)",
      }),
    ),
    "created[gte]": Type.Optional(
      Type.String({ format: "date-time", description: "Only payments created at or after this instant" }),
    ),
    "created[lte]": Type.Optional(
      Type.String({ format: "date-time", description: "Only payments created at or before this instant" }),
    ),
  },
  { additionalProperties: false },
);

export type PaymentFilters = {
  status?: (typeof PAYMENT_STATUSES)[number];
  price_id?: string;
  id_prefix?: string;
  shopper_email?: string;
  currency?: string;
  "amount[gte]"?: string;
  "amount[lte]"?: string;
  "created[gte]"?: string;
  "created[lte]"?: string;
};

export const CreatePaymentBody = Body({
  price_id: Type.String({ minLength: 1, maxLength: 64, description: "The price to charge" }),
  payment_provider: Type.Union([Type.Literal("card"), Type.Literal("us_bank_account")], {
    description: "How the shopper pays",
  }),
  trigger_data_input: Type.Optional(
    Body(
      {
        params_data_input: Type.Record(Type.String(), Type.Unknown(), {
          description: "The trigger's parameters",
        }),
      },
      "Input for the price's trigger, run once the payment is paid",
    ),
  ),
  amount: Type.Optional(DynamicAmount),
  shopper_email: Type.Optional(
    Type.String({ format: "email", maxLength: 254, description: "Where the receipt is sent" }),
  ),
});
withExamples(CreatePaymentBody, {
  price_id: "price_01m87s3v8k4r2fjc23vtvkbtjh",
  payment_provider: "card",
  shopper_email: "ada@example.com",
});

const Card = Body(
  {
    type: Type.Literal("card", { description: "A card" }),
    number: Type.String({ pattern: "^[0-9 ]{12,23}$", description: "The card number; spaces allowed" }),
    exp_month: Type.Integer({ minimum: 1, maximum: 12, description: "Expiry month, 1 to 12" }),
    exp_year: Type.Integer({ minimum: 2000, maximum: 2100, description: "Expiry year, four digits" }),
    cvc: Type.String({ pattern: "^[0-9]{3,4}$", description: "The card's security code" }),
  },
  "A test card (sandbox only)",
);
const Bank = Body(
  {
    type: Type.Literal("us_bank_account", { description: "A US bank account, debited" }),
    ...usBankAccountNumbers,
    account_holder_name: Type.String({
      minLength: 1,
      maxLength: 200,
      description: "The account holder's name",
    }),
  },
  "A test bank account (sandbox only)",
);
const Token = Body(
  {
    type: Type.Literal("token", { description: "A payment method made by the provider's browser script" }),
    id: Type.String({
      minLength: 3,
      maxLength: 255,
      description: "The provider's payment method id (`pm_…`)",
    }),
  },
  "A payment method id (Stripe: from Stripe.js)",
);

export const ConfirmPaymentBody = Body({
  payment_method: Type.Union([Card, Bank, Token], {
    description:
      "Sandbox: a test card or bank account. Stripe: a payment method id from Stripe.js (`type: token`) — raw card numbers are refused.",
  }),
  return_url: Type.Optional(
    Type.String({
      format: "uri",
      maxLength: 2048,
      description: "Where a 3-D Secure step sends the shopper back",
    }),
  ),
});
withExamples(ConfirmPaymentBody, {
  payment_method: { type: "card", number: "4242 4242 4242 4242", exp_month: 12, exp_year: 2030, cvc: "123" },
});

export const ReasonBody = Body({
  reason: Type.Optional(Type.String({ maxLength: 500, description: "Why, kept with the payment" })),
});
withExamples(ReasonBody, { reason: "The shopper asked by phone" });

export const SellerBody = Body({
  kyc_id: Type.String({
    minLength: 1,
    maxLength: 64,
    description: "A payable seller KYC record of the same app: the payment's seller share goes to it",
  }),
});
withExamples(SellerBody, { kyc_id: "kyc_01m87s3v8k4r2fjc23vtvkbtk9" });
export const RefundBody = Body({
  reason: Type.Optional(Type.String({ maxLength: 500, description: "Why, kept with the payment" })),
  amount: Type.Optional(
    Type.Union([Type.Number({ minimum: 0 }), Type.String({ maxLength: 64 })], {
      description:
        "How much to refund, a decimal in the charge currency (a number or a decimal string); absent: all that is not refunded yet. More than remains is 409 with `amount_remaining`.",
    }),
  ),
});
withExamples(RefundBody, { amount: "5.15", reason: "One of the two tickets was returned" });

// A $25.00 ticket sold by a marketplace seller, paid by card: the fee preview's example (docs/fees.md).
withExamples(PriceItem, exampleOf(FeePreview));
withExamples(Payment, {
  id: "pay_01m87s3v8k4r2fjc23vtvkbtjm",
  status: "paid",
  final_amount: 25.75,
  amount_refunded: 0,
  transfers: [],
  payment_provider: "card",
  trigger_data_input: {
    params_data_input: { receiver: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", quantity: 3 },
  },
  transaction_id: "0x9fc76417374aa880d4449a1f7f31ec597f00b1f6f3dd2d66f4c9c6c445836d8b",
  transaction_url:
    "https://sepolia.etherscan.io/tx/0x9fc76417374aa880d4449a1f7f31ec597f00b1f6f3dd2d66f4c9c6c445836d8b",
  price_item: exampleOf(PriceItem),
  transaction_response: {
    error: null,
    near: null,
    evm: {
      output: {
        block_number: 7123456,
        block_hash: "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",
        gas_used: "51234",
        logs: 1,
      },
    },
    wax: null,
    solana: null,
  },
  confirmation_status: {
    average_seconds: 12,
    progress: 100,
    required_confirmations: 3,
    confirmations: 3,
    confirmed: true,
  },
  app: exampleOf(App),
  price: exampleOf(Price),
  payment_token: null,
  next_action: null,
  shopper_email: "ada@example.com",
  cancelable: false,
  kyc_id: "kyc_01m87s3v8k4r2fjc23vtvkbtk9",
  created_at: "2026-11-24T21:30:00.000Z",
  updated_at: "2026-11-24T21:31:00.000Z",
});

/** A payment just created: pending, its token answered this once, nothing run yet. */
export const NEW_PAYMENT_EXAMPLE = {
  ...(exampleOf(Payment) as object),
  status: "pending",
  transaction_id: null,
  transaction_url: null,
  transaction_response: { error: null, near: null, evm: null, wax: null, solana: null },
  confirmation_status: {
    average_seconds: 12,
    progress: 0,
    required_confirmations: 3,
    confirmations: 0,
    confirmed: false,
  },
  payment_token: "pt_cGF5LXRva2VuLWV4YW1wbGUtZm9yLXRoZS1jaGVja291dA",
  cancelable: true,
  updated_at: "2026-11-24T21:30:00.000Z",
};

// Named in the OpenAPI document (components.schemas), referenced wherever they appear.
nameSchemas({ Conversion, PriceItem, Payment });
