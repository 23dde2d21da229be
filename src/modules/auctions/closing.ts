import { eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { executePayment } from "../payments/auction-hooks.ts";
import { expireAuctionPrices } from "../prices/for-auctions.ts";
import { bidAmount, emitAuctionEvent } from "./events.ts";
import { liveBids } from "./runner-up.ts";
import { priceIdsOf } from "./service.ts";
import { auctions, bids } from "./tables.ts";

/**
 * Closes an auction at its end time: in one transaction under the auction's row lock, the auction
 * and its two prices expire, the best bid whose hold is live wins and its held payment is executed
 * (contract call with that bid's `trigger_data_input`, then capture), and `auction.ended` is
 * emitted. Runners-up keep their holds until the winner's payment is captured or fails
 * (`followWinner`). `closed_at` is set in that same transaction, so a second run (a retried job, a
 * crash after commit) finds it closed and does nothing, and a crash before commit leaves nothing
 * behind: one capture, one winner. Bids still waiting for their hold are refused when it lands
 * (`settleBid` sees the auction closed).
 */
export async function closeAuction(deps: Deps, auctionId: string) {
  await deps.db.transaction(async (tx) => {
    const [auction] = await tx.select().from(auctions).where(eq(auctions.id, auctionId)).for("update");
    if (!auction || auction.closedAt !== null) return;
    const now = deps.now();
    if (auction.endsAt.getTime() > now.getTime() + 1000) return; // woken early: the job is rescheduled
    const [winner] = await liveBids(deps, tx, auction);
    if (winner) {
      await executePayment(deps, tx, winner.paymentId);
      await tx.update(bids).set({ status: "won", updatedAt: now }).where(eq(bids.id, winner.id));
    }
    await tx
      .update(auctions)
      .set({ expired: true, closedAt: now, winnerBidId: winner?.id ?? null, updatedAt: now })
      .where(eq(auctions.id, auctionId));
    await expireAuctionPrices(tx, priceIdsOf(auction), now);
    await emitAuctionEvent(deps, tx, auction, "auction.ended", {
      winner_bid_id: winner?.id ?? null,
      winner_shopper_id: winner?.shopperId ?? null,
      ...bidAmount(auction, winner),
      payment_id: winner?.paymentId ?? null,
    });
  });
}
