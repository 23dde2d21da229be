import { Type } from "typebox";
import { Nullable } from "../../platform/http/schemas.ts";

// Fields the payment API and the hosted checkout share, declared once.

/** The chain transaction the payment's trigger sent. */
export const transactionFields = {
  transaction_id: Nullable(Type.String({ description: "The chain transaction, once the trigger ran" })),
  transaction_url: Nullable(Type.String({ description: "The transaction in the chain's explorer" })),
};

/** The step the shopper must take before the card is authorised. */
export const NextAction = Nullable(
  Type.Object(
    {
      type: Type.String({ description: "The kind of step, e.g. redirect_to_url" }),
      url: Type.String({ description: "Where to send the shopper" }),
    },
    { description: "A 3-D Secure step to complete" },
  ),
);

/** The amount a payment of a dynamic price names, on creation through the API or the checkout. */
export const DynamicAmount = Type.Union([Type.Number(), Type.String({ maxLength: 64 })], {
  description: "Only for dynamic prices: at least the price's amount",
});
