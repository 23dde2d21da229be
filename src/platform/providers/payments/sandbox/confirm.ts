import { invalid } from "../../../http/errors.ts";
import type { ConfirmInput, ProviderIntent } from "../types.ts";
import type { Result } from "./answers.ts";
import { type IntentRow, presentIntent, unexpectedState } from "./intent-rows.ts";
import { resolvePaymentMethod } from "./payment-methods.ts";
import type { IntentDecision } from "./unlocked.ts";

/**
 * What confirming `row` with `input` does, as Stripe's test numbers decide: a decline (the intent
 * keeps wanting a payment method, with the error), a 3-D Secure step, a bank debit on its way, or
 * a held card. Reads nothing: the payment method's id says what it leads to; refuses an intent
 * that cannot be confirmed, a method of another kind, and a bank debit without a mandate.
 */
export function confirmDecision(
  row: IntentRow,
  input: ConfirmInput,
  options: {
    now: Date;
    publicUrl: string;
    settleAfterMs: number;
  },
): IntentDecision<Result<ProviderIntent>> {
  if (row.status !== "requires_payment_method" && row.status !== "requires_confirmation") {
    throw unexpectedState(row, "confirmed");
  }
  const resolved = resolvePaymentMethod(input.paymentMethod, options.now);
  if (typeof resolved === "string") throw invalid("/payment_method", resolved);
  if (resolved.method !== row.method) {
    throw invalid("/payment_method", `this intent takes a ${row.method} payment method`);
  }
  if (resolved.method === "us_bank_account" && !input.mandate) {
    throw invalid("/mandate", "a bank debit needs the shopper's mandate acceptance");
  }
  const base = { paymentMethodLabel: resolved.label, lastError: null, nextAction: null };
  const ok = (next: IntentRow) => ({ ok: presentIntent(next) });
  const { outcome } = resolved;
  if (outcome.kind === "decline") {
    const { declineCode, message } = outcome;
    return {
      set: { ...base, lastError: { code: outcome.code, declineCode, message } },
      answer: (next) => ({ declined: { declineCode, message, intent: presentIntent(next) } }),
    };
  }
  if (outcome.kind === "three_d_secure") {
    const url = `${options.publicUrl}/sandbox/3ds/${row.id}`;
    const nextAction = { type: "redirect_to_url", url, returnUrl: input.returnUrl ?? null };
    return { set: { ...base, status: "requires_action", nextAction }, answer: ok };
  }
  if (outcome.kind === "debit") {
    const settlesAt = new Date(options.now.getTime() + options.settleAfterMs);
    return { set: { ...base, status: "processing", settlesAt, settleOutcome: outcome.settles }, answer: ok };
  }
  return { set: { ...base, ...authorised(row) }, answer: ok };
}

/** A card authorised: held for its capture, or charged at once (automatic capture). */
function authorised(row: IntentRow): Partial<IntentRow> {
  return row.captureMethod === "automatic"
    ? { status: "succeeded", amountReceived: row.amount }
    : { status: "requires_capture", amountCapturable: row.amount };
}

/**
 * What the shopper's answer to the 3-D Secure step makes of the intent: passed, the card is held;
 * failed, the intent wants another payment method, with the reason.
 */
export function authenticationOutcome(row: IntentRow, passed: boolean): Partial<IntentRow> {
  if (row.status !== "requires_action") throw unexpectedState(row, "authenticated");
  if (passed) return { ...authorised(row), nextAction: null };
  return {
    status: "requires_payment_method",
    nextAction: null,
    lastError: {
      code: "payment_intent_authentication_failure",
      declineCode: null,
      message: "The shopper did not complete 3-D Secure authentication.",
    },
  };
}
