// A sandbox payment method's id says what its instrument leads to, so nothing is stored for it
// (src/platform/providers/payments/sandbox/payment-methods.ts): every test instrument made into an
// id must lead, through the id alone, where its numbers lead, and the id must not hold the numbers.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  resolveInstrument,
  sandboxTestInstruments,
} from "../../src/platform/providers/payments/sandbox/instruments.ts";
import {
  makePaymentMethod,
  resolvePaymentMethod,
} from "../../src/platform/providers/payments/sandbox/payment-methods.ts";
import type { PaymentMethodInput } from "../../src/platform/providers/payments/types.ts";

const now = new Date("2026-11-30T12:00:00Z");
const instruments = sandboxTestInstruments();
type Instrument = Exclude<PaymentMethodInput, { type: "token" }>;
const card = (number: string): Instrument => ({
  type: "card",
  number,
  expMonth: 12,
  expYear: 2030,
  cvc: "123",
});
const inputs: Instrument[] = [
  ...instruments.cards.filter((c) => /^\d+$/.test(c.value)).map((c) => card(c.value)),
  card("4012888888881881"), // any other valid number
  ...instruments.bankAccounts.map(
    (account): Instrument => ({
      type: "us_bank_account",
      routingNumber: instruments.routingNumber,
      accountNumber: account.value,
      accountHolderName: "Jane Shopper",
    }),
  ),
];

test("every test instrument, made into an id, leads where its numbers lead", () => {
  assert.ok(inputs.length >= 10);
  for (const input of inputs) {
    const made = makePaymentMethod(input, now);
    assert.ok(typeof made !== "string", String(made));
    assert.deepEqual(
      resolvePaymentMethod({ type: "token", id: made.id }, now),
      resolveInstrument(input, now),
    );
    assert.ok(made.id.startsWith("pm_sbx_") && made.id.length <= 255, made.id);
    const numbers = input.type === "card" ? input.number : input.accountNumber;
    assert.ok(!made.id.includes(numbers), `${made.id} holds no number`);
    assert.notEqual(makePaymentMethod(input, now), made, "each id is new");
  }
});

test("an id the sandbox did not make is unknown", () => {
  const made = makePaymentMethod(card("4242424242424242"), now);
  assert.ok(typeof made !== "string");
  const [kind, outcome, label, nonce] = made.id.slice("pm_sbx_".length).split(".");
  for (const id of [
    "pm_sbx_0123456789abcdef01234567", // an id of earlier releases (a stored row, now gone)
    `pm_sbx_${kind}.no-such-outcome.${label}.${nonce}`,
    `pm_sbx_us_bank_account.${outcome}.${label}.${nonce}`, // a card's outcome as a bank account
    `pm_sbx_${kind}.${outcome}.${label}`,
    `${made.id}.extra`,
  ]) {
    assert.match(
      String(resolvePaymentMethod({ type: "token", id }, now)),
      /unknown sandbox payment method/,
      id,
    );
  }
});
