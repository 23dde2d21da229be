import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database, Tx } from "../../../db/index.ts";
import type { PaymentMethodInput } from "../types.ts";
import { type Outcome, type Resolved, resolveInstrument } from "./instruments.ts";
import { sandboxPaymentMethods } from "./tables.ts";

const PREFIX = "pm_sbx_";

/** A payment method the sandbox made: its id, kind and label (brand and last four digits). */
export interface SandboxPaymentMethod {
  id: string;
  method: "card" | "us_bank_account";
  label: string;
}

/**
 * Turns a card or bank account into a payment method id, as Stripe's `POST /v1/payment_methods`
 * (or Stripe.js in the browser) does: what it leads to is decided and kept now, the numbers are
 * dropped. Answers a validation message for an instrument the sandbox does not take.
 */
export async function createPaymentMethod(
  db: Database,
  input: Exclude<PaymentMethodInput, { type: "token" }>,
  now: Date,
): Promise<SandboxPaymentMethod | string> {
  const resolved = resolveInstrument(input, now);
  if (typeof resolved === "string") return resolved;
  const id = `${PREFIX}${randomBytes(12).toString("hex")}`;
  await db
    .insert(sandboxPaymentMethods)
    .values({ id, method: resolved.method, outcome: resolved.outcome, label: resolved.label });
  return { id, method: resolved.method, label: resolved.label };
}

/** What a payment method leads to: one the sandbox made, a Stripe test token, or raw numbers. */
export async function resolvePaymentMethod(
  db: Database | Tx,
  input: PaymentMethodInput,
  now: Date,
): Promise<Resolved | string> {
  if (input.type !== "token" || !input.id.startsWith(PREFIX)) return resolveInstrument(input, now);
  const [row] = await db.select().from(sandboxPaymentMethods).where(eq(sandboxPaymentMethods.id, input.id));
  if (!row) return `unknown sandbox payment method ${input.id}`;
  return { method: row.method as Resolved["method"], outcome: row.outcome as Outcome, label: row.label };
}
