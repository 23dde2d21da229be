import { eq, or } from "drizzle-orm";
import type { Executor } from "../../platform/db/index.ts";
import { auctions } from "./tables.ts";

/** `deps.referrers.auctionOfPrice`: the auction a price belongs to (its bid or end price), if any. */
export async function auctionOfPrice(db: Executor, priceId: string): Promise<{ id: string } | undefined> {
  const [auction] = await db
    .select({ id: auctions.id })
    .from(auctions)
    .where(or(eq(auctions.onBidPriceId, priceId), eq(auctions.onEndPriceId, priceId)));
  return auction;
}
