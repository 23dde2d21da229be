import { Type } from "typebox";
import { Nullable } from "../http/schemas.ts";

/** A money amount in an answer: a JSON number in major units (25.75), its currency named beside it. */
export const Amount = (description: string) => Type.Number({ description });

const breakdown = (unit: string) => ({
  amount: Amount(`The price, in ${unit}`),
  amount_total: Amount(`What the shopper is charged, in ${unit}`),
  amount_transaction_fee: Amount("amount_total - amount"),
  amount_app_transaction_fee: Amount("What the charge leaves after the provider fee and the price"),
  amount_platform: Amount("The platform's percent share of amount"),
  amount_seller: Amount("What the seller receives: amount less the platform and app shares"),
  amount_app: Amount("The app's percent share of amount (marketplace apps only)"),
});

/** A US bank account's numbers, as a test debit and a seller's payout account take them. */
export const usBankAccountNumbers = {
  routing_number: Type.String({
    pattern: "^[0-9]{9}$",
    description: "The bank's 9-digit ABA routing number",
  }),
  account_number: Type.String({
    pattern: "^[0-9]{4,17}$",
    description: "The account number, 4 to 17 digits",
  }),
};

/** The interface's `price_item`, documented in docs/fees.md. */
export const PriceItem = Type.Object(
  {
    currency: Type.String({ description: "The charge currency" }),
    provider_min_amount_fee: Amount("The provider's minimum fee, in the charge currency"),
    provider_processing_fee_percent: Type.Number({ description: "The provider's fee percent" }),
    platform_fee: Type.Number({ description: "The platform fee percent" }),
    app_fee: Type.Number({ description: "The app fee percent applied (0 for individual apps)" }),
    app_type: Type.Union([Type.Literal("individual"), Type.Literal("marketplace")], {
      description: "The app's type: individual or marketplace",
    }),
    ...breakdown("the charge currency"),
    processing_fee_amount: Amount("What the payment provider keeps"),
    conversion: Nullable(
      Type.Object(
        {
          currency: Type.String({ description: "The price's currency" }),
          exchange: Type.Number({ description: "Charge-currency units per price-currency unit" }),
          converted_amount: Amount("The price in the charge currency"),
          converted_amount_net: Amount("The seller's share in the charge currency"),
          ...breakdown("the price's currency"),
        },
        {
          description: "The breakdown in the price's own currency, when it differs from the charge currency",
        },
      ),
    ),
  },
  {
    description: "Fee breakdown; every part in minor units adds up to amount_total",
    // A $25.00 price for a marketplace app paid by card (docs/fees.md's arithmetic).
    examples: [
      {
        currency: "usd",
        provider_min_amount_fee: 0.3,
        provider_processing_fee_percent: 2.9,
        platform_fee: 1,
        app_fee: 5,
        app_type: "marketplace",
        amount: 25,
        amount_total: 25.75,
        amount_transaction_fee: 0.75,
        amount_app_transaction_fee: 0,
        amount_platform: 0.25,
        amount_seller: 23.5,
        amount_app: 1.25,
        processing_fee_amount: 0.75,
        conversion: null,
      },
    ],
  },
);
