import { randomBytes } from "node:crypto";
import { eq, type SQL, sql } from "drizzle-orm";
import { type Database, insertRow, type Tx } from "../../../db/index.ts";
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

/** A payment method about to be made: what the caller answers, and the row's insert to run. */
export interface PaymentMethodToMake {
  method: SandboxPaymentMethod;
  /** The row's insert, written only if `when` holds: for a caller's own statement (one round trip). */
  insert: (when?: SQL) => SQL;
}

/**
 * Turns a card or bank account into a payment method id, as Stripe's `POST /v1/payment_methods`
 * (or Stripe.js in the browser) does: what it leads to is decided now, the numbers are dropped,
 * and the row to keep is answered for the caller to write in its own statement. Answers a
 * validation message for an instrument the sandbox does not take.
 */
export function paymentMethodToMake(
  input: Exclude<PaymentMethodInput, { type: "token" }>,
  now: Date,
): PaymentMethodToMake | string {
  const resolved = resolveInstrument(input, now);
  if (typeof resolved === "string") return resolved;
  const id = `${PREFIX}${randomBytes(12).toString("hex")}`;
  const row = { id, method: resolved.method, outcome: resolved.outcome, label: resolved.label };
  return {
    method: { id, method: resolved.method, label: resolved.label },
    insert: (when) => insertRow(sandboxPaymentMethods, row, when),
  };
}

/**
 * The stored payment method `input` names, as a column for the caller's read (undefined when it
 * names none: raw numbers or a Stripe test token), so a confirm reads it with the intent.
 */
export function storedPaymentMethodColumn(
  input: PaymentMethodInput,
): SQL<StoredPaymentMethod | null> | undefined {
  if (input.type !== "token" || !input.id.startsWith(PREFIX)) return undefined;
  return sql<StoredPaymentMethod | null>`(select json_build_object('method', "method", 'outcome', "outcome", 'label', "label")
    from ${sandboxPaymentMethods} where "id" = ${input.id})`;
}

/** A stored payment method's row, as `storedPaymentMethodColumn` reads it. */
export type StoredPaymentMethod = Pick<Resolved, "method" | "outcome" | "label">;

/** What a payment method leads to: one the sandbox made, a Stripe test token, or raw numbers. */
export async function resolvePaymentMethod(
  db: Database | Tx,
  input: PaymentMethodInput,
  now: Date,
  stored?: StoredPaymentMethod | null,
): Promise<Resolved | string> {
  if (input.type !== "token" || !input.id.startsWith(PREFIX)) return resolveInstrument(input, now);
  // Read with the intent when the caller could (`storedPaymentMethodColumn`), else here.
  const found = stored !== undefined ? stored : await readStored(db, input.id);
  if (!found) return `unknown sandbox payment method ${input.id}`;
  return { method: found.method, outcome: found.outcome, label: found.label };
}

async function readStored(db: Database | Tx, id: string): Promise<StoredPaymentMethod | null> {
  const [row] = await db.select().from(sandboxPaymentMethods).where(eq(sandboxPaymentMethods.id, id));
  return row
    ? { method: row.method as Resolved["method"], outcome: row.outcome as Outcome, label: row.label }
    : null;
}
