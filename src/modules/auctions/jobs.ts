import { eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Tx } from "../../platform/db/index.ts";
import type { JobDefinition } from "../../platform/jobs/index.ts";
import { expireHold, settleBid } from "./bidding.ts";
import { closeAuction } from "./closing.ts";
import { mailShopperCode } from "./code-mail.ts";
import { CLOSE_AUCTION_JOB, HOLD_EXPIRING_JOB, SETTLE_BID_JOB, SHOPPER_CODE_JOB } from "./job-names.ts";
import type { ShopperCodeMail } from "./shoppers.ts";
import { auctions, bids } from "./tables.ts";

/**
 * The payments module calls this in the transaction that moves a deferred payment to hold or
 * failed; a bid's payment queues the bid's settlement, which takes the auction lock in its own
 * transaction (the payment's lock is held here, and the auction is always locked first).
 */
export async function onDeferredPayment(deps: Pick<Deps, "jobs">, tx: Tx, payment: { id: string }) {
  const [bid] = await tx.select({ id: bids.id }).from(bids).where(eq(bids.paymentId, payment.id));
  if (bid) await deps.jobs.send(tx, SETTLE_BID_JOB, { paymentId: payment.id });
}

export function auctionJobs(deps: Deps): JobDefinition<never>[] {
  const jobs: JobDefinition<never>[] = [
    {
      name: CLOSE_AUCTION_JOB,
      async handle(data: { auctionId: string }) {
        const [auction] = await deps.db.select().from(auctions).where(eq(auctions.id, data.auctionId));
        if (!auction || auction.closedAt) return;
        if (auction.endsAt.getTime() > deps.now().getTime() + 1000) {
          // A clock that runs behind the queue's: try again at the end time.
          await deps.db.transaction((tx) =>
            deps.jobs.send(tx, CLOSE_AUCTION_JOB, data, { startAfter: auction.endsAt }).then(() => undefined),
          );
          return;
        }
        await closeAuction(deps, data.auctionId);
      },
    } as JobDefinition<never>,
    {
      name: SETTLE_BID_JOB,
      handle: (data: { paymentId: string }) => settleBid(deps, data.paymentId),
    } as JobDefinition<never>,
    {
      name: HOLD_EXPIRING_JOB,
      handle: (data: { bidId: string }) => expireHold(deps, data.bidId),
    } as JobDefinition<never>,
    {
      name: SHOPPER_CODE_JOB,
      retryLimit: 10,
      handle: (data: ShopperCodeMail) => mailShopperCode(deps, data),
    } as JobDefinition<never>,
  ];
  return jobs;
}
