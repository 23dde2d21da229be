import { eq, sql } from "drizzle-orm";
import { drizzleRunner, insertRow, type Tx } from "../../../db/index.ts";
import { AppError, invalid } from "../../../http/errors.ts";
import { newId } from "../../../ids.ts";
import type { CreateIntentInput, IntentError, IntentStatus, ProviderIntent } from "../types.ts";
import { eventRow, recordChargeFailed } from "./events.ts";
import { RETURN_REASON } from "./instruments.ts";
import { sandboxEvents, sandboxIntents } from "./tables.ts";

// An intent row of the sandbox provider, and what every operation does to one.

export type IntentRow = typeof sandboxIntents.$inferSelect;

export function presentIntent(row: IntentRow): ProviderIntent {
  return {
    id: row.id,
    status: row.status as IntentStatus,
    method: row.method as ProviderIntent["method"],
    amount: row.amount,
    amountCapturable: row.amountCapturable,
    amountReceived: row.amountReceived,
    currency: row.currency,
    captureMethod: row.captureMethod as ProviderIntent["captureMethod"],
    nextAction: (row.nextAction as ProviderIntent["nextAction"]) ?? null,
    lastError: (row.lastError as IntentError | null) ?? null,
    paymentMethodLabel: row.paymentMethodLabel,
    metadata: row.metadata as Record<string, string>,
  };
}

/** A new intent of `account`, wanting a payment method, as `createIntent` makes it at `now`. */
export function newIntentRow(input: CreateIntentInput, account: string, now: Date): IntentRow {
  if (input.amount <= 0n) throw invalid("/amount", "must be positive");
  if (!/^[a-z]{3}$/i.test(input.currency)) throw invalid("/currency", "must be an ISO 4217 code");
  return {
    id: newId("pi"),
    account,
    method: input.method,
    amount: input.amount,
    amountCapturable: 0n,
    amountReceived: 0n,
    amountRefunded: 0n,
    currency: input.currency.toLowerCase(),
    status: "requires_payment_method",
    // Cards are held and captured later unless charged at once; bank debits cannot be held.
    captureMethod: input.method === "card" && !input.chargeAtOnce ? "manual" : "automatic",
    paymentMethodLabel: null,
    nextAction: null,
    lastError: null,
    metadata: input.metadata ?? {},
    transferGroup: input.transferGroup ?? null,
    settlesAt: null,
    settleOutcome: null,
    createdAt: now,
    updatedAt: now,
  };
}

export const unexpectedState = (row: IntentRow, action: string) =>
  new AppError(
    "invalid_state_transition",
    `This PaymentIntent's status is ${row.status}, so it cannot be ${action}`,
  );

/**
 * What writing `set` to an intent makes: the row as the update leaves it (a key set to undefined is
 * left as it was, as Drizzle's update leaves it), and the event a status change (or a new error)
 * records, if any; both known before the statement runs.
 */
export function intentChange(row: IntentRow, set: Partial<IntentRow>, now: Date) {
  const next: IntentRow = { ...row, updatedAt: now };
  for (const [key, value] of Object.entries(set)) {
    if (value !== undefined) (next as Record<string, unknown>)[key] = value;
  }
  const changed = next.status !== row.status || Boolean(set.lastError);
  return { next, event: changed ? eventRow(next, presentIntent(next)) : undefined };
}

/** Writes `set` to an intent, recording the event a status change (or a new error) makes. */
export async function updateIntent(
  tx: Tx,
  row: IntentRow,
  set: Partial<IntentRow>,
  now: Date,
): Promise<IntentRow> {
  const { next, event } = intentChange(row, set, now);
  const update = tx
    .update(sandboxIntents)
    .set({ ...set, updatedAt: now })
    .where(eq(sandboxIntents.id, row.id));
  if (!event) {
    await update;
    return next;
  }
  // The change and the event it makes, in one statement.
  await drizzleRunner(tx)(sql`with updated as (${update.getSQL()}) ${insertRow(sandboxEvents, event)}`);
  return next;
}

/**
 * A bank debit whose settlement time has come ends succeeded or failed, as ACH reports it. A
 * returning test account succeeds first, then, as long again later, is returned by its bank: the
 * intent wants a payment method again, with the bank's reason (`charge.failed` and
 * `payment_intent.payment_failed`, as Stripe reports a return).
 */
export async function settleIntent(
  tx: Tx,
  row: IntentRow,
  now: Date,
  settleAfterMs: number,
): Promise<IntentRow> {
  if (!row.settlesAt || row.settlesAt > now) return row;
  if (row.status === "succeeded" && row.settleOutcome === "returned") {
    const returned = await updateIntent(
      tx,
      row,
      {
        status: "requires_payment_method",
        settlesAt: null,
        lastError: { code: RETURN_REASON.code, declineCode: null, message: RETURN_REASON.message },
      },
      now,
    );
    await recordChargeFailed(tx, returned, RETURN_REASON);
    return returned;
  }
  if (row.status !== "processing") return row;
  if (row.settleOutcome === "succeeded" || row.settleOutcome === "returned") {
    const returnsAt = row.settleOutcome === "returned" ? new Date(now.getTime() + settleAfterMs) : null;
    return updateIntent(
      tx,
      row,
      { status: "succeeded", amountReceived: row.amount, settlesAt: returnsAt },
      now,
    );
  }
  return updateIntent(
    tx,
    row,
    {
      status: "requires_payment_method",
      settlesAt: null,
      lastError: {
        code: "account_closed",
        declineCode: null,
        message: "The customer's bank account has been closed.",
      },
    },
    now,
  );
}
