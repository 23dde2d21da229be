import { notFound } from "../../platform/http/errors.ts";
import { renderCall } from "../triggers/render.ts";
import type { PaymentContext } from "./context.ts";

/**
 * The trigger's parameters of a new payment are valid: they are rendered into the trigger's call
 * exactly as the chain step will, so a payment whose call cannot be made is refused (400 naming
 * the parameter) before any money moves. Answers the parameters as they will be used. The trigger
 * and its wallet come with the payment's context; whether the seller may be paid is checked beside
 * this in `openPayment`.
 */
export async function checkPayable(
  context: Pick<PaymentContext, "price" | "trigger" | "wallet">,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (!context.price?.triggerId) return params;
  if (!context.trigger || !context.wallet) throw notFound("Trigger");
  await renderCall(context.trigger, context.wallet, params, "/body/trigger_data_input/params_data_input");
  return params;
}
