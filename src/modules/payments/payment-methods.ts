import type { Deps } from "../../deps.ts";
import { invalid } from "../../platform/http/errors.ts";
import type { PaymentMethodInput } from "../../platform/providers/payments/types.ts";
import type { PaymentRow } from "./lifecycle.ts";
import type { ConfirmInput } from "./pipeline/authorize.ts";

function methodInput(input: ConfirmInput["payment_method"]): PaymentMethodInput {
  switch (input.type) {
    case "card":
      return {
        type: "card",
        number: input.number.replace(/ /g, ""),
        expMonth: input.exp_month,
        expYear: input.exp_year,
        cvc: input.cvc,
      };
    case "us_bank_account":
      return {
        type: "us_bank_account",
        routingNumber: input.routing_number,
        accountNumber: input.account_number,
        accountHolderName: input.account_holder_name,
      };
    case "token":
      return { type: "token", id: input.id };
  }
}

type Token = Extract<PaymentMethodInput, { type: "token" }>;

/**
 * The payment method a confirm pays with, as an id: what the authorize job, the tables and the
 * logs hold. With Stripe the shopper's browser made it (Stripe.js), and raw numbers are refused.
 * In sandbox mode raw test numbers are accepted for convenience, and are exchanged here for a
 * sandbox payment method before anything is stored or queued, as Stripe's own API would; so a
 * real card typed into a sandbox checkout is not kept anywhere (only its brand and last four, in
 * the id, which says what it leads to: nothing is written for it).
 */
export function paymentMethodFor(
  deps: Pick<Deps, "paymentProviders">,
  payment: PaymentRow,
  input: ConfirmInput["payment_method"],
): Token {
  const method = methodInput(input);
  if (method.type === "token") return method;
  if (payment.providerId !== "sandbox") {
    throw invalid(
      "/body/payment_method/type",
      "must be `token` (a Stripe.js payment method) with this provider",
    );
  }
  if (method.type !== payment.method) {
    throw invalid("/body/payment_method/type", `this payment is paid by ${payment.method}`);
  }
  const made = exchanged(deps, method);
  if (typeof made === "string") throw invalid("/body/payment_method", made);
  return made;
}

/**
 * `paymentMethodFor` before the payment is read, for a confirm made in one statement: raw numbers
 * name the kind the payment must be paid by in the sandbox (`kind`, for the statement to check).
 * Undefined when the sandbox refuses the numbers: the confirm reads the payment first, and refuses
 * them once it is found.
 */
export function paymentMethodUnread(
  deps: Pick<Deps, "paymentProviders">,
  input: ConfirmInput["payment_method"],
): { token: Token; kind: string | null } | undefined {
  const method = methodInput(input);
  if (method.type === "token") return { token: method, kind: null };
  const made = exchanged(deps, method);
  return typeof made === "string" ? undefined : { token: made, kind: method.type };
}

/** Raw numbers exchanged for a sandbox payment method's id, or why the sandbox refuses them. */
function exchanged(
  deps: Pick<Deps, "paymentProviders">,
  method: Exclude<PaymentMethodInput, { type: "token" }>,
): Token | string {
  const made = deps.paymentProviders.sandbox.makePaymentMethod(method);
  return typeof made === "string" ? made : { type: "token", id: made.id };
}
