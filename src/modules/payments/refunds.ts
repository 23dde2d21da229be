import type { Deps } from "../../deps.ts";
import { recordAudit } from "../../platform/audit/log.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { requireAppRole } from "../apps/access.ts";
import { remember } from "./commands.ts";
import { actorName } from "./create.ts";
import { type RefundInput, refundLocked } from "./pipeline/refund.ts";
import { loadPayment, present } from "./reads.ts";

// The app's `refund` command; the refund itself, its job and the seller's reversal are the
// pipeline's refund and reverse-transfers steps (pipeline/refund.ts, pipeline/reverse-transfers.ts).

/**
 * Refunds all or part of a captured payment (docs/payments.md, "Refunds"). The refunded total, the
 * books and the provider's refund job commit together; the payment becomes `refunded` once nothing
 * is left. Partial refunds are for `paid` payments (captured and their seller paid); a payment
 * whose capture or transfers failed is refunded in full.
 */
export async function refundPayment(
  deps: Deps,
  actor: Principal,
  appId: string,
  paymentId: string,
  input: RefundInput = {},
  idempotencyKey?: string,
) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const key = idempotencyKey && `refund ${idempotencyKey}`;
  const row = await deps.db.transaction(async (tx) => {
    const payment = await loadPayment(tx, appId, paymentId, true);
    if (key && payment.commandKey === key) return payment; // done before its answer was lost
    const refunded = await refundLocked(deps, tx, payment, input, actorName(actor));
    await recordAudit(tx, actor, { appId, action: "payment.refund", targetId: payment.id });
    return remember(tx, refunded, key);
  });
  return present(deps, actor, row);
}
