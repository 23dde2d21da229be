import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Tx } from "../../platform/db/index.ts";
import {
  executePayment,
  paymentJoin,
  paymentOfBid,
  reasonForStatus,
  releasePayment,
} from "../payments/auction-hooks.ts";
import type { PaymentRow } from "../payments/lifecycle.ts";
import { bidAmount, emitAuctionEvent } from "./events.ts";
import type { AuctionRow, BidRow } from "./presenters.ts";
import { auctions, type BidStatus, bids } from "./tables.ts";

/*
 * Runners-up (docs/auctions.md, "Runners-up"). A card hold is the only thing that lets a bid be
 * charged later, so a runner-up exists only while its hold does. When a bid is outbid, the best
 * bid of each other shopper keeps its hold, up to `AUCTION_BACKUP_HOLDS` of them (1 by default);
 * every other hold is released at once. The runners-up are released as soon as the winner's
 * payment is captured; if it fails instead, the best runner-up whose hold is still live wins.
 */

export async function setBidStatus(
  deps: Deps,
  tx: Tx,
  bid: BidRow,
  status: BidStatus,
  reason: string | null,
) {
  const now = deps.now();
  await tx
    .update(bids)
    .set({ status, reason, updatedAt: now, placedAt: status === "placed" ? now : bid.placedAt })
    .where(eq(bids.id, bid.id));
}

/**
 * How long a bid's hold can still be counted on: its authorisation lapses `AUCTION_HOLD_HOURS`
 * after it landed, and a margin (a quarter of that, at most 12 hours) is kept for the contract
 * call and the capture to finish before it does. The hold-expiring job drops bids at this time.
 */
export function holdWindow(deps: Deps) {
  const holdMs = deps.config.auctionHoldHours * 3600 * 1000;
  return { holdMs, marginMs: Math.min(holdMs / 4, 12 * 3600 * 1000) };
}

export function liveUntil(deps: Deps, bid: BidRow): Date {
  const { holdMs, marginMs } = holdWindow(deps);
  return new Date((bid.placedAt ?? bid.createdAt).getTime() + holdMs - marginMs);
}

/** Placed and outbid bids whose payment is still on hold, best first (amount, then the earlier). */
async function heldBids(tx: Tx, auctionId: string) {
  const payment = paymentJoin(bids.paymentId);
  const rows = await tx
    .select({ bid: bids })
    .from(bids)
    .innerJoin(payment.table, payment.on)
    .where(and(eq(bids.auctionId, auctionId), inArray(bids.status, ["placed", "outbid"]), payment.held))
    .orderBy(desc(bids.amount), asc(bids.placedAt), asc(bids.id));
  return rows.map((r) => r.bid);
}

/** A hold about to lapse: the bid is `expired`, its hold released, `auction.bid_expired` sent. */
export async function dropLapsedHold(deps: Deps, tx: Tx, auction: AuctionRow, bid: BidRow) {
  await setBidStatus(deps, tx, bid, "expired", "the card hold lapsed before it could be charged");
  await releasePayment(deps, tx, bid.paymentId, "the card hold lapsed before it could be charged");
  await emitAuctionEvent(deps, tx, auction, "auction.bid_expired", {
    bid_id: bid.id,
    shopper_id: bid.shopperId,
  });
}

/**
 * The bids that can still win, best first: the standing bid and the runners-up whose hold is on
 * and live. Holds too close to their lapse to be charged are released on the way. A standing bid
 * whose payment is no longer held (the app cancelled it) is dropped as `expired` too.
 */
export async function liveBids(deps: Deps, tx: Tx, auction: AuctionRow): Promise<BidRow[]> {
  const now = deps.now().getTime();
  const live: BidRow[] = [];
  for (const bid of await heldBids(tx, auction.id)) {
    if (liveUntil(deps, bid).getTime() > now) live.push(bid);
    else await dropLapsedHold(deps, tx, auction, bid);
  }
  const standing = await tx
    .select()
    .from(bids)
    .where(and(eq(bids.auctionId, auction.id), eq(bids.status, "placed")));
  for (const bid of standing) {
    if (!live.some((b) => b.id === bid.id)) await standingLost(deps, tx, auction, bid);
  }
  return live;
}

/** The standing bid's payment stopped being held by someone else's hand (the app cancelled it). */
export async function standingLost(deps: Deps, tx: Tx, auction: AuctionRow, bid: BidRow) {
  const payment = await paymentOfBid(tx, bid.paymentId);
  await setBidStatus(deps, tx, bid, "expired", `its payment is ${payment.status}`);
  await emitAuctionEvent(deps, tx, auction, "auction.bid_expired", {
    bid_id: bid.id,
    shopper_id: bid.shopperId,
  });
}

/**
 * The standing bid of an open auction was lost (its payment cancelled, its hold lapsed): the best
 * runner-up whose hold is live stands again, as the best live hold is what wins at the close.
 * Without it, the next bid had only the starting amount to beat, so a bid below the runner-up
 * could be placed, lose to it at the close, and keep its hold with nothing to release it.
 * `auction.bid_placed` says which bid stands now. The bid keeps the time its hold landed.
 */
export async function standAgain(deps: Deps, tx: Tx, auction: AuctionRow) {
  if (auction.closedAt !== null) return;
  const [standing] = await tx
    .select({ id: bids.id })
    .from(bids)
    .where(and(eq(bids.auctionId, auction.id), eq(bids.status, "placed")))
    .limit(1);
  if (standing) return;
  const now = deps.now().getTime();
  const best = (await heldBids(tx, auction.id)).find(
    (bid) => bid.status === "outbid" && liveUntil(deps, bid).getTime() > now,
  );
  if (!best) return;
  await tx
    .update(bids)
    .set({ status: "placed", reason: null, updatedAt: deps.now() })
    .where(eq(bids.id, best.id));
  await announceStanding(deps, tx, auction, best);
}

/** `auction.bid_placed`: `bid` now stands, newly placed or standing again. */
export async function announceStanding(deps: Deps, tx: Tx, auction: AuctionRow, bid: BidRow) {
  await emitAuctionEvent(deps, tx, auction, "auction.bid_placed", {
    bid_id: bid.id,
    shopper_id: bid.shopperId,
    ...bidAmount(auction, bid),
  });
}

/**
 * After `standing` was placed: the outbid bids that keep their hold as runners-up (the best bid of
 * each other shopper, at most `AUCTION_BACKUP_HOLDS`, with a live hold); every other outbid hold
 * is released now. Answers the ids of the bids kept.
 */
export async function trimRunnersUp(deps: Deps, tx: Tx, auction: AuctionRow, standing: BidRow) {
  const kept = new Set<string>();
  const shoppersKept = new Set<string>([standing.shopperId]);
  const now = deps.now().getTime();
  for (const bid of await heldBids(tx, auction.id)) {
    if (bid.id === standing.id || bid.status !== "outbid") continue;
    const keep =
      kept.size < deps.config.auctionBackupHolds &&
      !shoppersKept.has(bid.shopperId) &&
      liveUntil(deps, bid).getTime() > now;
    if (keep) {
      kept.add(bid.id);
      shoppersKept.add(bid.shopperId);
    } else {
      await releasePayment(deps, tx, bid.paymentId, "outbid");
    }
  }
  return kept;
}

/** The sale is captured (or over): every runner-up's hold is released. */
async function releaseRunnersUp(deps: Deps, tx: Tx, auction: AuctionRow, reason: string) {
  for (const bid of await heldBids(tx, auction.id)) {
    if (bid.status === "outbid") await releasePayment(deps, tx, bid.paymentId, reason);
  }
}

async function failureOf(tx: Tx, payment: PaymentRow) {
  return (await reasonForStatus(tx, payment)) ?? `the payment is ${payment.status}`;
}

/**
 * A winning bid's payment moved (under the auction's lock). Captured: the runners-up are released.
 * Failed or cancelled (the contract call failed and the hold was released, the capture was
 * declined, the app cancelled it): the bid is `failed`, and the best live runner-up wins; its
 * held payment runs the contract call with its own bid's input and is captured.
 * `auction.winner_changed` says so, with `winner_bid_id` null when no runner-up is left.
 */
export async function followWinner(
  deps: Deps,
  tx: Tx,
  auction: AuctionRow,
  bid: BidRow,
  payment: PaymentRow,
) {
  if (payment.status === "paid" || payment.status === "failed-transfers") {
    await releaseRunnersUp(deps, tx, auction, "the auction's winner paid");
    return;
  }
  if (payment.status !== "failed" && payment.status !== "cancelled") return;
  const failure = await failureOf(tx, payment);
  await setBidStatus(deps, tx, bid, "failed", `the winning payment failed: ${failure}`);
  const [next] = await liveBids(deps, tx, auction);
  const now = deps.now();
  if (next) {
    await executePayment(deps, tx, next.paymentId);
    await tx
      .update(bids)
      .set({ status: "won", reason: `won after ${bid.id}'s payment failed`, updatedAt: now })
      .where(eq(bids.id, next.id));
  }
  await tx
    .update(auctions)
    .set({ winnerBidId: next?.id ?? null, updatedAt: now })
    .where(eq(auctions.id, auction.id));
  await emitAuctionEvent(deps, tx, auction, "auction.winner_changed", {
    previous_bid_id: bid.id,
    previous_payment_id: bid.paymentId,
    reason: failure,
    winner_bid_id: next?.id ?? null,
    winner_shopper_id: next?.shopperId ?? null,
    ...bidAmount(auction, next),
    payment_id: next?.paymentId ?? null,
  });
}
