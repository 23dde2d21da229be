import { sql } from "drizzle-orm";
import { type Database, insertRow, type Runner } from "../../../db/index.ts";
import type { ConfirmInput, CreateIntentInput, ProviderIntent } from "../types.ts";
import type { Result } from "./answers.ts";
import { confirmDecision } from "./confirm.ts";
import { eventRow } from "./events.ts";
import { type OneStatement, onceInOneStatement } from "./idempotency.ts";
import { intentChange, newIntentRow, presentIntent } from "./intent-rows.ts";
import { sandboxEvents, sandboxIntents } from "./tables.ts";
import type { KnownIntent } from "./unlocked.ts";

export interface CreateConfirmedOptions {
  account: string;
  key: string;
  outageFlag: string;
  now: Date;
  publicUrl: string;
  settleAfterMs: number;
}

/**
 * `createIntent` then `confirmIntent` as one request (Stripe's `confirm: true` on the create), in
 * one statement where the two calls took three: the confirm is decided on the new intent in memory
 * (the payment method's id says what it leads to: payment-methods.ts), and the claim of the key
 * with its answer, the intent as confirmed and its two events (created, then what the confirm made
 * of it) are written together. Nothing is written when the flag is on or the confirm is refused; a
 * repeat of the key is answered the stored outcome. `written`: the intent as written and its
 * version, for the next call on it (a capture) to skip its read.
 */
export async function createConfirmed(
  run: Runner,
  db: Database,
  input: CreateIntentInput,
  confirm: ConfirmInput,
  options: CreateConfirmedOptions,
): Promise<{ result: OneStatement<Result<ProviderIntent>>; written?: KnownIntent }> {
  const created = newIntentRow(input, options.account, options.now);
  const decision = confirmDecision(created, confirm, options);
  const { next, event } = intentChange(created, decision.set, options.now);
  const answer = decision.answer(next);
  const result = await onceInOneStatement<Result<ProviderIntent>>(
    run,
    db,
    {
      account: options.account,
      key: options.key,
      operation: "create_and_confirm_intent",
      params: { input, confirm },
    },
    options.outageFlag,
    answer,
    (when) => [
      sql`${insertRow(sandboxIntents, next, when)} returning ${sandboxIntents}.xmin::text as version`,
      insertRow(sandboxEvents, eventRow(created, presentIntent(created), "payment_intent.created"), when),
      ...(event ? [insertRow(sandboxEvents, event, when)] : []),
    ],
    // The intent's insert is the statement's first write (w0): its version, for the capture.
    sql`, (select version from w0) as version`,
  );
  const version = result.written?.version;
  return { result, written: typeof version === "string" ? { row: next, version } : undefined };
}
