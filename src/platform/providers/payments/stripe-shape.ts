import type { IntentStatus, PaymentMethodType, ProviderIntent, ProviderReversal } from "./types.ts";

/** The fields of a Stripe PaymentIntent object this service reads (the SDK's type is much wider). */
export interface StripeIntentShape {
  id: string;
  object?: string;
  status: string;
  amount: number;
  amount_capturable?: number;
  amount_received?: number;
  currency: string;
  capture_method?: string | null;
  payment_method_types?: string[];
  next_action?: {
    type?: string;
    redirect_to_url?: { url?: string | null; return_url?: string | null } | null;
  } | null;
  last_payment_error?: { code?: string | null; decline_code?: string | null; message?: string | null } | null;
  metadata?: Record<string, string> | null;
}

/** A Stripe PaymentIntent as this service's intent; the sandbox's webhooks use the same shape. */
export function fromStripeIntent(pi: StripeIntentShape, label: string | null = null): ProviderIntent {
  const method: PaymentMethodType = pi.payment_method_types?.includes("us_bank_account")
    ? "us_bank_account"
    : "card";
  const url = pi.next_action?.redirect_to_url?.url;
  const error = pi.last_payment_error;
  return {
    id: pi.id,
    status: pi.status as IntentStatus,
    method,
    amount: BigInt(pi.amount),
    amountCapturable: BigInt(pi.amount_capturable ?? 0),
    amountReceived: BigInt(pi.amount_received ?? 0),
    currency: pi.currency,
    captureMethod: pi.capture_method === "manual" ? "manual" : "automatic",
    nextAction: url
      ? { type: "redirect_to_url", url, returnUrl: pi.next_action?.redirect_to_url?.return_url ?? null }
      : null,
    lastError: error
      ? {
          code: error.code ?? "unknown",
          declineCode: error.decline_code ?? null,
          message: error.message ?? "The payment failed",
        }
      : null,
    paymentMethodLabel: label,
    metadata: pi.metadata ?? {},
  };
}

export function toStripeIntent(intent: ProviderIntent): StripeIntentShape {
  return {
    id: intent.id,
    object: "payment_intent",
    status: intent.status,
    amount: Number(intent.amount),
    amount_capturable: Number(intent.amountCapturable),
    amount_received: Number(intent.amountReceived),
    currency: intent.currency,
    capture_method: intent.captureMethod,
    payment_method_types: [intent.method],
    next_action: intent.nextAction
      ? {
          type: "redirect_to_url",
          redirect_to_url: { url: intent.nextAction.url, return_url: intent.nextAction.returnUrl },
        }
      : null,
    last_payment_error: intent.lastError
      ? {
          code: intent.lastError.code,
          decline_code: intent.lastError.declineCode,
          message: intent.lastError.message,
        }
      : null,
    metadata: intent.metadata,
  };
}

/** The fields of a Stripe Charge or Dispute object that say collected money went back. */
export interface StripeReversalShape {
  object?: string;
  id?: string;
  payment_intent?: string | { id: string } | null;
  failure_code?: string | null;
  failure_message?: string | null;
  reason?: string | null;
}

const intentIdOf = (value: StripeReversalShape["payment_intent"]) =>
  typeof value === "string" ? value : (value?.id ?? null);

/**
 * A charge event that takes money back, as a reversal: `charge.failed` (for a bank debit, the
 * bank returned it) and `charge.dispute.created` (the shopper disputed it). Whether the money had
 * been collected is the payments module's to decide: a `charge.failed` of a debit still processing
 * is an ordinary failure, which the intent's own event reports.
 */
export function reversalOf(type: string, object: StripeReversalShape): ProviderReversal | null {
  const intentId = intentIdOf(object.payment_intent);
  if (!intentId) return null;
  if (type === "charge.failed" && object.object === "charge") {
    return {
      intentId,
      code: object.failure_code ?? "debit_returned",
      message: object.failure_message ?? "The bank returned the debit.",
    };
  }
  if (type === "charge.dispute.created" && object.object === "dispute") {
    const reason = object.reason ?? "general";
    return { intentId, code: `dispute_${reason}`, message: `The shopper disputed the debit (${reason}).` };
  }
  return null;
}
