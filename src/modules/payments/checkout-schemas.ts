import { Type } from "typebox";
import { IdParam, IdParams } from "../../platform/http/params.ts";
import { exampleOf, withExamples } from "../../platform/http/schema-docs.ts";
import { Body, Nullable } from "../../platform/http/schemas.ts";
import { DynamicAmount, NextAction, transactionFields } from "./payment-fields.ts";

// The hosted checkout's own calls: reached by the price's public id and the payment's token.
export const CheckoutPageParams = Type.Object({
  price_id: Type.String({ maxLength: 200, description: "The price's id" }),
});
export const CheckoutPriceParams = IdParams("price_id", "The price's id");
export const CheckoutPaymentParams = Type.Object({
  price_id: IdParam("The price's id"),
  payment_id: IdParam("The payment's id"),
});
export const TokenHeader = Type.Object({
  "x-payment-token": Type.String({
    minLength: 10,
    maxLength: 200,
    description: "The payment's token (`pt_…`), answered when the payment was started: the page's credential",
  }),
});
export const Method = Type.Union([Type.Literal("card"), Type.Literal("us_bank_account")], {
  description: "How the shopper pays: `card` (default) or `us_bank_account`",
});

export const Summary = Type.Object(
  {
    price: Type.String({ description: "The price in its own currency, formatted" }),
    converted: Nullable(Type.String({ description: "The price in the charge currency, when it differs" })),
    fees: Type.String({ description: "Fees added on top (price_item.amount_transaction_fee)" }),
    total: Type.String({ description: "What the shopper is charged (price_item.amount_total)" }),
  },
  { description: "What paying the price costs, formatted for display" },
);

export const ShopperPayment = Type.Object({
  id: Type.String({ description: "The payment's id (`pay_…`)" }),
  status: Type.String({ description: "The payment's status, as Payment.status" }),
  final_amount: Type.Number({ description: "What the shopper is charged, in major units of currency" }),
  currency: Type.String({ description: "The charge currency" }),
  summary: Summary,
  requires_payment_method: Type.Boolean({
    description: "Pending and waiting for a (new) payment method: confirm it again",
  }),
  next_action: NextAction,
  error: Nullable(
    Type.Object(
      {
        code: Type.String({ description: "The provider's code, e.g. `card_declined`" }),
        message: Type.String({ description: "What to tell the shopper" }),
      },
      { description: "Why the last try failed, while the payment waits for another method or has failed" },
    ),
  ),
  ...transactionFields,
  confirmation_status: Type.Object(
    {
      progress: Type.Number({ description: "0 to 100" }),
      confirmed: Type.Boolean({ description: "Whether the chain call is confirmed" }),
    },
    { description: "How far the chain has confirmed the contract call" },
  ),
});

withExamples(Summary, { price: "$25.00", converted: null, fees: "$0.75", total: "$25.75" });
withExamples(ShopperPayment, {
  id: "pay_01m87s3v8k4r2fjc23vtvkbtjm",
  status: "pending",
  final_amount: 25.75,
  currency: "usd",
  summary: exampleOf(Summary),
  requires_payment_method: false,
  next_action: {
    type: "redirect_to_url",
    url: "https://payments.example.com/sandbox/3ds/pi_01m87s3v8k4r2fjc23vtvkbtk3",
  },
  error: null,
  transaction_id: null,
  transaction_url: null,
  confirmation_status: { progress: 0, confirmed: false },
});
const TOKEN = "pt_cGF5LXRva2VuLWV4YW1wbGUtZm9yLXRoZS1jaGVja291dA";

export const QuoteQuery = Type.Object({
  payment_provider: Type.Optional(Method),
  amount: Type.Optional(Type.String({ maxLength: 64, description: "Dynamic prices only" })),
});

export const CreateCheckoutPaymentBody = withExamples(
  Body({
    email: Type.String({
      format: "email",
      maxLength: 254,
      description: "The shopper's email; the receipt goes here",
    }),
    payment_provider: Method,
    amount: Type.Optional(DynamicAmount),
    trigger_data_input: Type.Optional(
      Body(
        {
          params_data_input: Type.Record(Type.String(), Type.Unknown(), {
            description: "The trigger's parameters, keyed by name (checked against its params_data)",
          }),
        },
        "Input for the price's trigger, run once the payment is paid",
      ),
    ),
  }),
  { email: "ada@example.com", payment_provider: "card" },
);

export const CheckoutPaymentStarted = withExamples(
  Type.Object({
    id: Type.String({ description: "The payment's id (`pay_…`)" }),
    payment_token: Type.String({
      description: "The payment's token: send it as `x-payment-token`; answered once",
    }),
    status: Type.String({ description: "The payment's status: `pending`" }),
  }),
  { id: "pay_01m87s3v8k4r2fjc23vtvkbtjm", payment_token: TOKEN, status: "pending" },
);
