import { and, eq, isNull } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Tx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/http/errors.ts";
import type { ProviderIntent } from "../../platform/providers/payments/types.ts";
import { type CreatePaymentInput, openPayment } from "./create.ts";
import { type PaymentRow, transition } from "./lifecycle.ts";
import { paymentEvents, payments } from "./tables.ts";

/** The actor the hosted checkout's calls are recorded as (`actorName("shopper")`). */
const SHOPPER = "shopper";

/**
 * A payment opened by a shopper on the hosted checkout: anonymous, so limited per client address
 * (`checkout_per_ip`) and per price (`checkout_per_price`) before anything is written.
 */
export async function openCheckoutPayment(
  deps: Deps,
  appId: string,
  input: CreatePaymentInput & { price_id: string },
  ip: string,
) {
  await deps.rateLimiter.hit("checkout_per_ip", ip);
  await deps.rateLimiter.hit("checkout_per_price", input.price_id);
  return openPayment(deps, SHOPPER, appId, input);
}

/** Whether the payment was opened by a shopper on the hosted checkout (its first event says who). */
async function openedOnCheckout(tx: Tx, paymentId: string): Promise<boolean> {
  const [created] = await tx
    .select({ actor: paymentEvents.actor })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.paymentId, paymentId), isNull(paymentEvents.fromStatus)));
  return created?.actor === SHOPPER;
}

/** The provider's answer with its decline recorded: the provider's code and words, else `fallback`. */
export function withDecline(
  response: PaymentRow["transactionResponse"],
  error: ProviderIntent["lastError"],
  fallback: string,
) {
  return {
    ...response,
    error: {
      code: error?.code ?? "payment_failed",
      decline_code: error?.declineCode ?? null,
      message: error?.message ?? fallback,
    },
  };
}

/**
 * A declined card (or a failed 3-D Secure step) on the hosted checkout does not end the payment:
 * like Stripe's PaymentIntent, it waits, still `pending`, for the shopper's next card, and the
 * page confirms the same payment again, so a shopper's tries leave one payment, not one per try.
 * The decline is kept in `transaction_response.error`; nothing is held, so nothing is left behind
 * if the shopper walks away. Payments opened through the API (and auction bids, which the
 * auction follows) still fail on a decline. Answers whether the payment was kept open; called
 * inside `applyIntent`'s transaction with the locked, pending payment.
 */
export async function keepOpenForNextMethod(
  deps: Pick<Deps, "now">,
  tx: Tx,
  payment: PaymentRow,
  intent: ProviderIntent,
): Promise<boolean> {
  if (intent.status !== "requires_payment_method") return false;
  // Nobody asked for an answer (an intent's `created` event, or a late event of a decline already
  // applied): the payment simply waits for a payment method, as it did.
  if (payment.authState === "none") return true;
  // A bank debit that bounced after it was accepted is final.
  if (payment.authState === "done" || payment.deferExecution) return false;
  if (!(await openedOnCheckout(tx, payment.id))) return false;
  await tx
    .update(payments)
    .set({
      authState: "none",
      nextAction: null,
      transactionResponse: withDecline(
        payment.transactionResponse,
        intent.lastError,
        "The payment was not accepted",
      ),
      updatedAt: deps.now(),
    })
    .where(eq(payments.id, payment.id));
  return true;
}

/**
 * The shopper changed the order (email, amount or parameters) after a try: the payment opened for
 * the old order is cancelled rather than left pending. Only while it waits for a payment method;
 * one being authorised or paid is never withdrawn from the page.
 */
export async function withdrawCheckoutPayment(deps: Deps, paymentId: string): Promise<PaymentRow> {
  return deps.db.transaction(async (tx) => {
    const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for("update");
    if (payment.status !== "pending" || payment.authState !== "none") {
      throw new AppError("invalid_state_transition", "This payment is already being paid or is not pending");
    }
    return transition(deps, tx, payment, "cancelled", {
      actor: SHOPPER,
      reason: "the shopper changed the order and started again",
    });
  });
}
