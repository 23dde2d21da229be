import { Type } from "typebox";
import { oneOf } from "../../platform/http/literals.ts";
import { pageFields } from "../../platform/http/pagination.ts";
import { Body, Nullable, nameSchemas, Timestamp, withExamples } from "../../platform/http/schemas.ts";
import { App } from "../apps/schemas.ts";
import { Price } from "../prices/schemas.ts";
import { PAYMENT_STATUSES } from "./tables.ts";

const Status = oneOf(PAYMENT_STATUSES);
const Method = Type.Union([Type.Literal("card"), Type.Literal("us_bank_account")]);
const AnyObject = Type.Record(Type.String(), Type.Unknown());

const Conversion = Type.Object({
  currency: Type.String({ description: "The price's own currency" }),
  exchange: Type.Number({ description: "The rate: charge-currency units per unit of the price's currency" }),
  converted_amount: Type.Number({ description: "The price in the charge currency (the top-level `amount`)" }),
  converted_amount_net: Type.Number({ description: "The seller's share in the charge currency" }),
  amount: Type.Number({ description: "The price in its own currency" }),
  amount_total: Type.Number({
    description: "The charge converted back to the price's currency (never below the price)",
  }),
  amount_transaction_fee: Type.Number({ description: "amount_total - amount, in the price's currency" }),
  amount_app_transaction_fee: Type.Number({
    description: "What is left after the provider fee, in the price's currency",
  }),
  amount_platform: Type.Number({ description: "The platform's share, in the price's currency" }),
  amount_seller: Type.Number({ description: "The seller's share, in the price's currency" }),
  amount_app: Type.Number({
    description: "The app's share (marketplace apps only), in the price's currency",
  }),
});

export const PriceItem = Type.Object({
  currency: Type.String({ description: "The charge currency" }),
  provider_min_amount_fee: Type.Number({ description: "The provider's minimum fee, in the charge currency" }),
  provider_processing_fee_percent: Type.Number({
    description: "The provider's fee, as a fraction of the total",
  }),
  platform_fee: Type.Number({ description: "The platform's fee, as a fraction of the price" }),
  app_fee: Type.Number({
    description: "The app's fee applied (0 for an individual app), as a fraction of the price",
  }),
  app_type: Type.String({ description: "The app's type: individual or marketplace" }),
  amount: Type.Number({ description: "The price, in the charge currency" }),
  amount_total: Type.Number({
    description: "What the shopper is charged: the price plus the provider's fee",
  }),
  amount_transaction_fee: Type.Number({ description: "amount_total - amount" }),
  amount_app_transaction_fee: Type.Number({
    description: "What is left after the provider fee (always 0 in whole minor units)",
  }),
  amount_platform: Type.Number({ description: "The platform's share" }),
  amount_seller: Type.Number({
    description: "The seller's share: the price less the platform's and the app's",
  }),
  amount_app: Type.Number({ description: "The app's share (marketplace apps only)" }),
  processing_fee_amount: Type.Number({
    description: "The provider's fee: the larger of its minimum and its percent of the total",
  }),
  conversion: Nullable(Conversion),
});

const ChainOutput = Nullable(Type.Object({ output: AnyObject }));

export const Payment = Type.Object({
  id: Type.String({ description: "The payment's id" }),
  status: Status,
  final_amount: Type.Number({ description: "What the shopper is charged, in the charge currency" }),
  payment_provider: Method,
  trigger_data_input: Type.Object({ params_data_input: AnyObject }),
  transaction_id: Nullable(Type.String({ description: "The chain transaction, once the trigger ran" })),
  transaction_url: Nullable(Type.String({ description: "The transaction in the chain's explorer" })),
  price_item: PriceItem,
  transaction_response: Type.Object({
    error: Nullable(AnyObject),
    near: ChainOutput,
    evm: ChainOutput,
    wax: ChainOutput,
    solana: ChainOutput,
  }),
  confirmation_status: Type.Object({
    average_seconds: Type.Number({ description: "Typical seconds the chain takes to confirm" }),
    progress: Type.Number({ description: "0 to 100" }),
    required_confirmations: Type.Number({
      description: "Confirmations needed before the payment counts as confirmed",
    }),
    confirmations: Type.Number({ description: "Confirmations seen so far" }),
    confirmed: Type.Boolean({ description: "Whether the chain call is confirmed" }),
  }),
  app: App,
  price: Price,
  payment_token: Nullable(
    Type.String({ description: "For the shopper's page; answered once, when the payment is created" }),
  ),
  next_action: Nullable(
    Type.Object(
      {
        type: Type.String({ description: "The kind of step, e.g. redirect_to_url" }),
        url: Type.String({ description: "Where to send the shopper" }),
      },
      { description: "A 3-D Secure step to complete" },
    ),
  ),
  shopper_email: Nullable(Type.String({ description: "Where the receipt is sent" })),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const PaymentParams = Type.Object({
  app_id: Type.String({ maxLength: 64 }),
  payment_id: Type.String({ maxLength: 64 }),
});

export const ListPaymentsQuery = Type.Object(
  { ...pageFields, status: Type.Optional(Status), price_id: Type.Optional(Type.String({ maxLength: 64 })) },
  { additionalProperties: false },
);

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
  amount: Type.Optional(
    Type.Union([Type.Number(), Type.String({ maxLength: 64 })], {
      description: "Only for dynamic prices: at least the price's amount",
    }),
  ),
  shopper_email: Type.Optional(
    Type.String({ format: "email", maxLength: 254, description: "Where the receipt is sent" }),
  ),
});
withExamples(CreatePaymentBody, {
  price_id: "prc_01J9Z3K6",
  payment_provider: "card",
  shopper_email: "ada@example.com",
});

const Card = Body({
  type: Type.Literal("card"),
  number: Type.String({ pattern: "^[0-9 ]{12,23}$" }),
  exp_month: Type.Integer({ minimum: 1, maximum: 12 }),
  exp_year: Type.Integer({ minimum: 2000, maximum: 2100 }),
  cvc: Type.String({ pattern: "^[0-9]{3,4}$" }),
});
const Bank = Body({
  type: Type.Literal("us_bank_account"),
  routing_number: Type.String({ pattern: "^[0-9]{9}$" }),
  account_number: Type.String({ pattern: "^[0-9]{4,17}$" }),
  account_holder_name: Type.String({ minLength: 1, maxLength: 200 }),
});
const Token = Body({ type: Type.Literal("token"), id: Type.String({ minLength: 3, maxLength: 255 }) });

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

// Named in the OpenAPI document (components.schemas), referenced wherever they appear.
nameSchemas({ Conversion, PriceItem, Payment });
