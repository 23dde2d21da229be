import { eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { AppError } from "../../platform/http/errors.ts";
import { requireAppRole } from "../apps/access.ts";
import { requirePayableSeller } from "../kyc/sellers.ts";
import { postPaymentEvents } from "./books.ts";
import { loadPayment, present } from "./reads.ts";
import type { PaymentStatus } from "./tables.ts";
import { payments } from "./tables.ts";

// A payment's seller share goes where its `kyc_id` says, copied from the price when the payment was
// made. When that seller can no longer be paid (deleted before this rule, or never to be paid
// again), the app points the share at another seller of the app, then retries.

/** Statuses whose seller share is still to be paid out: the payout may move. */
const REPOINTABLE: readonly PaymentStatus[] = ["pending", "hold", "failed-captured", "failed-transfers"];

/**
 * Points the payment's seller share at seller record `kycId` of the same app, who must be payable
 * now (409 `seller_not_payable` otherwise). Refused once the share was transferred (a refund
 * reverses that transfer instead) or the payment is settled. The transfer round moves on, so the
 * next try is a new transfer request to the new seller, never a replay of one to the old.
 */
export async function repointSeller(
  deps: Deps,
  actor: Principal,
  appId: string,
  paymentId: string,
  kycId: string,
) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const row = await deps.db.transaction(async (tx) => {
    const payment = await loadPayment(tx, appId, paymentId, true);
    if (!REPOINTABLE.includes(payment.status)) {
      throw new AppError(
        "invalid_state_transition",
        `A ${payment.status} payment has no seller share left to pay out`,
      );
    }
    if (payment.transfers.seller) {
      throw new AppError(
        "invalid_state_transition",
        "The seller's share was already transferred: refund the payment to take it back instead",
      );
    }
    if (payment.transferPending) {
      // The provider has not answered a transfer of the share: the first seller may have it.
      throw new AppError(
        "invalid_state_transition",
        "A transfer of the seller's share is in flight or went unanswered: wait for it, or retry the payment to learn its outcome; the payout can move once the provider has refused it",
      );
    }
    // Locked for share: the seller cannot be deleted between this check and the commit.
    await requirePayableSeller(tx, appId, kycId, true);
    const now = deps.now();
    const [updated] = await tx
      .update(payments)
      .set({ kycId, transferRound: payment.transferRound + 1, updatedAt: now })
      .where(eq(payments.id, payment.id))
      .returning();
    // Captured already (a collected debit, a failed call or transfer after the capture): the share
    // the books made payable to the old seller is owed to the new one from now on.
    if (payment.capturedAmount > 0n && payment.kycId !== kycId) {
      const moved = { type: "payout_moved" as const, from: payment.kycId, round: updated.transferRound };
      await postPaymentEvents(tx, updated, [moved], now);
    }
    deps.logger.info(
      { payment_id: payment.id, app_id: appId, from_kyc_id: payment.kycId, kyc_id: kycId },
      "payment payout re-pointed",
    );
    return updated;
  });
  return present(deps, actor, row);
}
