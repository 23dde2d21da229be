import { eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { conflict } from "../../platform/http/errors.ts";
import { requireAppRole } from "../apps/access.ts";
import { closeAuction } from "./closing.ts";
import { CLOSE_AUCTION_JOB } from "./job-names.ts";
import { getAuction, loadAuction } from "./service.ts";
import { auctions } from "./tables.ts";

/**
 * Ends an auction now, as if its end time had come: under the auction's lock its `ends_at` becomes
 * now (bids stop being taken at once) and the close job is queued in the same transaction. The
 * close then runs in this request too, so the answer already shows the winner; if the process
 * stops before, the job closes it, and whichever runs second finds it closed (`closed_at`).
 */
export async function endAuction(deps: Deps, actor: Principal, appId: string, auctionId: string) {
  await requireAppRole(deps.db, actor, appId, "edit");
  await deps.db.transaction(async (tx) => {
    const auction = await loadAuction(tx, appId, auctionId, true);
    if (auction.expired || auction.closedAt !== null) throw conflict("The auction has already ended");
    const now = deps.now();
    if (auction.endsAt.getTime() > now.getTime()) {
      await tx.update(auctions).set({ endsAt: now, updatedAt: now }).where(eq(auctions.id, auctionId));
    }
    await deps.jobs.send(tx, CLOSE_AUCTION_JOB, { auctionId });
  });
  await closeAuction(deps, auctionId);
  return getAuction(deps, actor, appId, auctionId);
}
