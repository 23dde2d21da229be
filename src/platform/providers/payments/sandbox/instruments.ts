import type { PaymentMethodInput } from "../types.ts";

/** What the sandbox does with a payment method: the same test numbers as Stripe's. */
export type Outcome =
  | { kind: "authorize" }
  | { kind: "decline"; code: "card_declined"; declineCode: string; message: string }
  | { kind: "three_d_secure" }
  /** `returned`: collected (succeeded), then returned by the bank some time later. */
  | { kind: "debit"; settles: "succeeded" | "failed" | "returned" };

const CARDS: Record<string, Outcome> = {
  "4242424242424242": { kind: "authorize" },
  "4000056655665556": { kind: "authorize" },
  "5555555555554444": { kind: "authorize" },
  "4000000000000002": {
    kind: "decline",
    code: "card_declined",
    declineCode: "generic_decline",
    message: "Your card was declined.",
  },
  "4000000000009995": {
    kind: "decline",
    code: "card_declined",
    declineCode: "insufficient_funds",
    message: "Your card has insufficient funds.",
  },
  "4000000000009987": {
    kind: "decline",
    code: "card_declined",
    declineCode: "lost_card",
    message: "Your card was declined.",
  },
  "4000002760003184": { kind: "three_d_secure" },
};

// Stripe's test payment-method tokens, so code written for Stripe.js runs on the sandbox too.
const TOKENS: Record<string, string> = {
  pm_card_visa: "4242424242424242",
  pm_card_mastercard: "5555555555554444",
  pm_card_chargeDeclined: "4000000000000002",
  pm_card_chargeDeclinedInsufficientFunds: "4000000000009995",
  pm_card_authenticationRequired: "4000002760003184",
};

const TEST_ROUTING_NUMBER = "110000000";
const BANK_ACCOUNT_SUCCEEDS = "000123456789";
const BANK_ACCOUNT_FAILS = "000111111116";
/** Collected, then returned by the bank after collection: account closed (ACH return R02). */
const BANK_ACCOUNT_RETURNED = "000111111113";

/** Why a returned test debit came back: the last error its intent then reports. */
export const RETURN_REASON = Object.freeze({
  code: "account_closed",
  message:
    "The customer's bank account was closed: the bank returned the debit after it was collected (R02).",
});

export interface Resolved {
  method: "card" | "us_bank_account";
  outcome: Outcome;
  label: string;
}

function luhnValid(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

const brandOf = (number: string) => (number.startsWith("5") ? "mastercard" : "visa");

/** The outcome a payment method leads to, or a validation message when it is not a usable one. */
export function resolveInstrument(input: PaymentMethodInput, now: Date): Resolved | string {
  if (input.type === "token") {
    const number = TOKENS[input.id];
    if (!number) return `unknown sandbox payment method ${input.id}`;
    return resolveInstrument({ type: "card", number, expMonth: 12, expYear: 2099, cvc: "123" }, now);
  }
  if (input.type === "us_bank_account") {
    if (input.routingNumber !== TEST_ROUTING_NUMBER)
      return "routing number is not a sandbox test routing number";
    const label = `STRIPE TEST BANK •••• ${input.accountNumber.slice(-4)}`;
    if (input.accountNumber === BANK_ACCOUNT_SUCCEEDS)
      return { method: "us_bank_account", outcome: { kind: "debit", settles: "succeeded" }, label };
    if (input.accountNumber === BANK_ACCOUNT_FAILS)
      return { method: "us_bank_account", outcome: { kind: "debit", settles: "failed" }, label };
    if (input.accountNumber === BANK_ACCOUNT_RETURNED)
      return { method: "us_bank_account", outcome: { kind: "debit", settles: "returned" }, label };
    return "account number is not a sandbox test account number";
  }
  const number = input.number.replace(/[\s-]/g, "");
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) return "card number is invalid";
  const expired =
    input.expYear < now.getUTCFullYear() ||
    (input.expYear === now.getUTCFullYear() && input.expMonth < now.getUTCMonth() + 1);
  if (input.expMonth < 1 || input.expMonth > 12 || expired) return "card expiry is invalid or past";
  if (!/^\d{3,4}$/.test(input.cvc)) return "card security code is invalid";
  // Any other valid number is authorised, as Stripe's test mode does for unlisted test numbers.
  const outcome = CARDS[number] ?? { kind: "authorize" };
  return { method: "card", outcome, label: `${brandOf(number)} •••• ${number.slice(-4)}` };
}

/** An outcome's short name, for a payment method id that carries it (payment-methods.ts). */
export function outcomeKey(outcome: Outcome): string {
  if (outcome.kind === "decline") return `decline-${outcome.declineCode}`;
  if (outcome.kind === "debit") return `debit-${outcome.settles}`;
  return outcome.kind;
}

/** Every outcome the sandbox has, by its short name. */
const OUTCOMES = new Map<string, Outcome>(
  [
    { kind: "authorize" } as Outcome,
    ...Object.values(CARDS),
    ...(["succeeded", "failed", "returned"] as const).map((settles): Outcome => ({ kind: "debit", settles })),
  ].map((outcome) => [outcomeKey(outcome), outcome]),
);

/** The outcome named `key` (`outcomeKey`), if the sandbox has one. */
export function outcomeNamed(key: string): Outcome | undefined {
  return OUTCOMES.get(key);
}

/** A test instrument and what a payment confirmed with it does, for the API's testing guide. */
export interface TestInstrument {
  /** The card number, payment-method token or bank account number. */
  value: string;
  outcome: string;
}

function cardOutcome(outcome: Outcome): string {
  if (outcome.kind === "decline") {
    return `Declined, \`${outcome.declineCode}\`: the payment is \`failed\` (on the hosted checkout it stays \`pending\` for another card)`;
  }
  if (outcome.kind === "three_d_secure") {
    return "Asks for 3-D Secure: the payment stays `pending` with `next_action.url`, the sandbox's challenge page (Complete or Fail)";
  }
  return "Authorised: the payment moves to `hold`, then `paid` (after the price's contract call, if any)";
}

const DEBIT_OUTCOME: Record<"succeeded" | "failed" | "returned", string> = {
  succeeded: "Collected a few seconds after confirmation: the payment moves to `hold`, then `paid`",
  failed: "Fails a few seconds after confirmation (`account_closed`): the payment is `failed`",
  returned:
    "Collected (`paid`), then returned by the bank a few seconds later (`account_closed`, ACH R02): the payment is `failed`, a seller's transfer is reversed",
};

/** The sandbox's test cards, Stripe test tokens and bank accounts, each with its outcome. */
export function sandboxTestInstruments(): {
  cards: TestInstrument[];
  tokens: TestInstrument[];
  routingNumber: string;
  bankAccounts: TestInstrument[];
} {
  const accounts = [
    [BANK_ACCOUNT_SUCCEEDS, "succeeded"],
    [BANK_ACCOUNT_FAILS, "failed"],
    [BANK_ACCOUNT_RETURNED, "returned"],
  ] as const;
  return {
    cards: [
      ...Object.entries(CARDS).map(([value, outcome]) => ({ value, outcome: cardOutcome(outcome) })),
      { value: "any other valid number", outcome: cardOutcome({ kind: "authorize" }) },
    ],
    tokens: Object.entries(TOKENS).map(([value, number]) => {
      const outcome = cardOutcome(CARDS[number] ?? { kind: "authorize" });
      return { value, outcome: `As \`${number}\`: ${outcome.charAt(0).toLowerCase()}${outcome.slice(1)}` };
    }),
    routingNumber: TEST_ROUTING_NUMBER,
    bankAccounts: accounts.map(([value, settles]) => ({ value, outcome: DEBIT_OUTCOME[settles] })),
  };
}
