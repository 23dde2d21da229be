import { and, asc, eq, inArray } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Deps } from "../../deps.ts";
import { notFound } from "../../platform/http/errors.ts";
import { openEventStream } from "../../platform/http/event-stream.ts";
import { viewedRecord } from "../../platform/http/page-views.ts";
import { formatAmount } from "../../platform/money/amount.ts";
import { currencyOf } from "../../platform/money/currencies.ts";
import { triggerParams } from "../triggers/form.ts";
import { auctions, type BidStatus, bids, shoppers } from "./tables.ts";

// `refused` is listed so a bidder's page can say its bid was not accepted; the page shows only
// the bidder's own refused bids.
const SHOWN: readonly BidStatus[] = ["placed", "outbid", "won", "expired", "failed", "refused"];

/** `jane@example.com` -> `j***@example.com`: bidders see each other's bids, not addresses. */
const mask = (email: string) => {
  const [user, domain] = email.split("@");
  return `${user.slice(0, 1)}***@${domain}`;
};

/** What the public page shows: the current price, the end time and the bid history. */
async function publicState(deps: Deps, auctionId: string) {
  const [auction] = await deps.db.select().from(auctions).where(eq(auctions.id, auctionId));
  if (!auction) throw notFound("Auction");
  const currency = currencyOf(auction.currency, "currency");
  const rows = await deps.db
    .select({ bid: bids, email: shoppers.email })
    .from(bids)
    .innerJoin(shoppers, eq(shoppers.id, bids.shopperId))
    .where(and(eq(bids.auctionId, auctionId), inArray(bids.status, SHOWN)))
    .orderBy(asc(bids.createdAt), asc(bids.id));
  const standing = rows.find((r) => r.bid.status === "placed" || r.bid.status === "won");
  const next = standing ? standing.bid.amount + auction.minIncrement : auction.amount;
  return {
    id: auction.id,
    app_id: auction.appId,
    name: auction.name,
    currency: currency.code,
    starting_amount: formatAmount(auction.amount, currency),
    current_amount: standing ? formatAmount(standing.bid.amount, currency) : null,
    minimum_bid: formatAmount(next, currency),
    ends_at: auction.endsAt.toISOString(),
    expired: auction.expired,
    views: auction.views,
    /** Changes when the winner's payment fails and a runner-up wins (docs/auctions.md). */
    winner_bid_id: auction.winnerBidId,
    bids: rows.map((r) => ({
      id: r.bid.id,
      shopper_id: r.bid.shopperId,
      bidder: mask(r.email),
      amount: formatAmount(r.bid.amount, currency),
      status: r.bid.status,
      created_at: r.bid.createdAt.toISOString(),
    })),
  };
}

const POLL_MS = 1000;
const HEARTBEAT_MS = 15_000;

/**
 * Server-sent events for the public page. Each open stream reads the auction once a second and
 * sends the state when it changed: any API process serves any stream, whichever process placed
 * the bid (no in-process emitter to share), at one small query per stream per second.
 */
export async function streamState(
  deps: Deps,
  auctionId: string,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  let last = JSON.stringify(await publicState(deps, auctionId));
  const raw = openEventStream(request, reply, 2000, `event: state\ndata: ${last}`);
  let busy = false;
  let quietFor = 0;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      const state = JSON.stringify(await publicState(deps, auctionId));
      if (state !== last) {
        last = state;
        quietFor = 0;
        raw.write(`event: state\ndata: ${state}\n\n`);
      } else {
        quietFor += POLL_MS;
        if (quietFor >= HEARTBEAT_MS) {
          quietFor = 0;
          raw.write(": keep-alive\n\n");
        }
      }
    } catch (error) {
      request.log.warn({ err: error }, "auction stream stopped");
      stop();
    } finally {
      busy = false;
    }
  }, POLL_MS);
  const stop = () => {
    clearInterval(timer);
    if (!raw.writableEnded) raw.end();
  };
  request.raw.on("close", stop);
  return stop;
}

/** The public page's read, which counts the view. */
export async function viewAuction(deps: Deps, auctionId: string) {
  const row = await viewedRecord(deps.db, auctions, auctionId, "Auction");
  return {
    id: row.id,
    app_id: row.appId,
    name: row.name,
    /** Code, minor-unit digits and kind: the page formats amounts as the server's `formatMoney`. */
    currency: currencyOf(row.currency, "currency"),
    ends_at: row.endsAt.toISOString(),
    /** The trigger's parameters: each bid carries them (`trigger_data_input`). */
    params: await triggerParams(deps.db, row.triggerId),
  };
}
