import { randomBytes } from "node:crypto";
import type { PaymentMethodInput } from "../types.ts";
import { outcomeKey, outcomeNamed, type Resolved, resolveInstrument } from "./instruments.ts";

const PREFIX = "pm_sbx_";

/** A payment method the sandbox made: its id, kind and label (brand and last four digits). */
export interface SandboxPaymentMethod {
  id: string;
  method: "card" | "us_bank_account";
  label: string;
}

/**
 * Turns a card or bank account into a payment method id, as Stripe's `POST /v1/payment_methods`
 * (or Stripe.js in the browser) does: what it leads to is decided now and the numbers are dropped.
 * The id carries what was decided (the kind, the outcome's name and the label, never the number,
 * expiry or security code), as Stripe's own test payment methods (`pm_card_visa`) carry theirs:
 * nothing is stored, and a confirm reads nothing to know it, in any process. Answers a validation
 * message for an instrument the sandbox does not take.
 */
export function makePaymentMethod(
  input: Exclude<PaymentMethodInput, { type: "token" }>,
  now: Date,
): SandboxPaymentMethod | string {
  const resolved = resolveInstrument(input, now);
  if (typeof resolved === "string") return resolved;
  const facts = [
    resolved.method,
    outcomeKey(resolved.outcome),
    Buffer.from(resolved.label).toString("base64url"),
  ];
  const id = `${PREFIX}${facts.join(".")}.${randomBytes(6).toString("hex")}`;
  return { id, method: resolved.method, label: resolved.label };
}

/** What a payment method id the sandbox made says (`makePaymentMethod`); undefined for any other. */
function madeBySandbox(id: string): Resolved | undefined {
  const [method, key, label, nonce, ...rest] = id.slice(PREFIX.length).split(".");
  const outcome = outcomeNamed(key ?? "");
  if (!outcome || !label || !nonce || rest.length > 0) return undefined;
  const kind = outcome.kind === "debit" ? "us_bank_account" : "card";
  if (method !== kind) return undefined;
  return { method: kind, outcome, label: Buffer.from(label, "base64url").toString("utf8") };
}

/** What a payment method leads to: one the sandbox made, a Stripe test token, or raw numbers. */
export function resolvePaymentMethod(input: PaymentMethodInput, now: Date): Resolved | string {
  if (input.type !== "token" || !input.id.startsWith(PREFIX)) return resolveInstrument(input, now);
  return madeBySandbox(input.id) ?? `unknown sandbox payment method ${input.id}`;
}
