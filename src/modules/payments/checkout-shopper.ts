import type { Deps } from "../../deps.ts";
import { notFound } from "../../platform/http/errors.ts";
import { formatAmount } from "../../platform/money/amount.ts";
import { currencyOf } from "../../platform/money/currencies.ts";
import { paymentSummary } from "./checkout-view.ts";
import type { PaymentRow } from "./lifecycle.ts";
import { confirmationOf } from "./presenters.ts";
import { paymentByToken } from "./service.ts";

/** What the shopper's page may see of its payment: what it charges, no shares, no app, no other payments. */
export function shopperView(row: PaymentRow) {
  const awaitingMethod = row.status === "pending" && row.authState === "none";
  const error = (row.transactionResponse as { error?: { code?: string; message?: string } | null }).error;
  // A decline is news only while the payment waits for another method, or once it failed.
  const showError = error && (awaitingMethod || row.status !== "pending");
  const confirmation = confirmationOf(row) as { progress?: number; confirmed?: boolean };
  return {
    id: row.id,
    status: row.status,
    final_amount: formatAmount(row.chargeAmount, currencyOf(row.chargeCurrency, "charge_currency")),
    currency: row.chargeCurrency,
    summary: paymentSummary(row),
    requires_payment_method: awaitingMethod,
    next_action: row.nextAction ?? null,
    error: showError
      ? { code: error.code ?? "payment_failed", message: error.message ?? "Payment failed" }
      : null,
    transaction_id: row.transactionId,
    transaction_url: row.transactionUrl,
    confirmation_status: { progress: confirmation.progress ?? 0, confirmed: confirmation.confirmed ?? false },
  };
}

/** The payment the token opens, when it is this price's and this id: anything else is 404. */
export async function shopperPayment(deps: Deps, priceId: string, paymentId: string, token: string) {
  const payment = await paymentByToken(deps, token);
  if (payment.id !== paymentId || payment.priceId !== priceId) throw notFound("Payment");
  return payment;
}
