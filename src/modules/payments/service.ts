import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { presentPrice } from "../prices/presenters.ts";
import { type CreatePaymentInput, openPayment } from "./create.ts";
import { presentPayment } from "./presenters.ts";

export { getPayment } from "./answer-text.ts";
// The payments module's service, as its routes call it: the create here (its statement is in
// create.ts), the reads (reads.ts) and the commands on an open payment (commands.ts). What auctions
// ask of their bids' payments is auction-hooks.ts.
export {
  type ConfirmInput,
  cancelPayment,
  confirmPayment,
  requestAuthorization,
  retryPayment,
} from "./commands.ts";
export { repointSeller } from "./payout.ts";
export { listPayments, paymentByToken } from "./reads.ts";
export { refundPayment } from "./refunds.ts";

/** `createKey`: the request's Idempotency-Key with its scope, kept on the payment (see `openPayment`). */
export async function createPayment(
  deps: Deps,
  actor: Principal,
  appId: string,
  input: CreatePaymentInput,
  createKey?: string,
) {
  const { row, token, price, app } = await openPayment(deps, actor, appId, input, createKey);
  return presentPayment(row, { app, price: presentPrice(price, deps.now()), paymentToken: token });
}
