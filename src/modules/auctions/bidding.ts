import { createHash } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Tx } from "../../platform/db/index.ts";
import { AppError, conflict, forbidden, invalid } from "../../platform/http/errors.ts";
import { newId } from "../../platform/ids.ts";
import { formatAmountText, parseAmount } from "../../platform/money/amount.ts";
import { type Currency, currencyOf } from "../../platform/money/currencies.ts";
import { divRoundHalfUp } from "../../platform/money/rational.ts";
import { paymentOfBid, releasePayment } from "../payments/auction-hooks.ts";
import { type ConfirmInput, requestAuthorization } from "../payments/commands.ts";
import { openPayment } from "../payments/create.ts";
import { emitAuctionEvent } from "./events.ts";
import { HOLD_EXPIRING_JOB } from "./job-names.ts";
import type { AuctionRow } from "./presenters.ts";
import {
  announceStanding,
  dropLapsedHold,
  followWinner,
  holdWindow,
  liveUntil,
  setBidStatus,
  standAgain,
  standingLost,
  trimRunnersUp,
} from "./runner-up.ts";
import { loadAuction, presentBidToShopper } from "./service.ts";
import { authenticateShopper } from "./shoppers.ts";
import { auctions, bids, shoppers } from "./tables.ts";

export interface BidInput {
  amount: number | string;
  currency?: string;
  payment_method: ConfirmInput["payment_method"];
  /** The trigger's parameters for this bid: checked now, used by the call if this bid wins. */
  trigger_data_input?: { params_data_input: Record<string, unknown> };
}

/** The lowest amount the next bid may have: the start, or the standing bid plus the increment. */
async function minimumNextBid(tx: Deps["db"] | Tx, auction: AuctionRow) {
  const [standing] = await tx
    .select({ amount: bids.amount })
    .from(bids)
    .where(and(eq(bids.auctionId, auction.id), eq(bids.status, "placed")))
    .orderBy(desc(bids.amount))
    .limit(1);
  return standing ? standing.amount + auction.minIncrement : auction.amount;
}

const isOpen = (auction: AuctionRow, now: Date) =>
  !auction.expired && auction.closedAt === null && auction.endsAt.getTime() > now.getTime();

/** A bid typed in another currency, in the auction's: exact ratio, rounded half-up once. */
async function converted(deps: Deps, value: number | string, from: Currency, to: Currency) {
  const typed = parseAmount(value, from, "/body/amount");
  if (from.code === to.code) return { amount: typed, conversion: null };
  const quote = await deps.rates.quote(from, to);
  if (!quote) throw invalid("/body/currency", `no exchange rate from ${from.code} to ${to.code}`);
  const amount = divRoundHalfUp(
    typed * quote.ratio.num * 10n ** BigInt(to.exponent),
    quote.ratio.den * 10n ** BigInt(from.exponent),
  );
  return {
    amount,
    conversion: {
      from_currency: from.code,
      from_amount: formatAmountText(typed, from),
      rate: { num: String(quote.ratio.num), den: String(quote.ratio.den) },
      source: quote.source,
    },
  };
}

/**
 * A shopper's bid: checked against the standing bid now (a quick refusal), backed by a deferred
 * card payment whose authorisation runs as a job; the bid is placed (or refused) when the hold
 * lands, under the auction's row lock (`settleBid`).
 */
export async function createBid(
  deps: Deps,
  appId: string,
  auctionId: string,
  authorization: string | undefined,
  input: BidInput,
  mandate: { ipAddress: string; userAgent: string },
  idempotencyKey?: string,
) {
  const shopper = await authenticateShopper(deps, appId, authorization);
  if (idempotencyKey !== undefined && !/^[\x21-\x7e]{1,255}$/.test(idempotencyKey)) {
    throw new AppError("validation_failed", "Idempotency-Key must be 1 to 255 printable ASCII characters", {
      errors: [{ path: "/header/idempotency-key", message: "must be 1 to 255 printable ASCII characters" }],
    });
  }
  const requested: unknown[] = [auctionId, String(input.amount), input.currency ?? null];
  if (input.trigger_data_input) requested.push(input.trigger_data_input.params_data_input);
  const requestHash = createHash("sha256").update(JSON.stringify(requested)).digest("base64url");
  const replay = async () => {
    if (idempotencyKey === undefined) return undefined;
    const [earlier] = await deps.db
      .select()
      .from(bids)
      .where(and(eq(bids.shopperId, shopper.id), eq(bids.idempotencyKey, idempotencyKey)));
    if (!earlier) return undefined;
    if (earlier.requestHash !== requestHash) {
      throw new AppError("idempotency_key_reused", "This Idempotency-Key was used with a different bid");
    }
    return presentBidToShopper(deps, earlier.id);
  };
  const earlier = await replay();
  if (earlier) return earlier;
  if (shopper.disabled) throw forbidden("This shopper is disabled and cannot bid");
  const auction = await loadAuction(deps.db, appId, auctionId);
  if (!isOpen(auction, deps.now())) throw conflict("The auction has ended");
  const currency = currencyOf(auction.currency, "currency");
  const from = input.currency ? currencyOf(input.currency, "/body/currency") : currency;
  const { amount, conversion } = await converted(deps, input.amount, from, currency);
  if (amount < auction.amount) {
    throw invalid(
      "/body/amount",
      `must be at least the starting amount, ${formatAmountText(auction.amount, currency)}`,
    );
  }
  const minimum = await minimumNextBid(deps.db, auction);
  if (amount < minimum) {
    throw conflict(`The bid must be at least ${formatAmountText(minimum, currency)} ${currency.code}`);
  }
  const { row: payment } = await openPayment(deps, "shopper", appId, {
    price_id: auction.onBidPriceId,
    payment_provider: "card",
    amount: formatAmountText(amount, currency),
    shopper_email: shopper.email,
    defer_execution: true,
    // Checked against the auction's trigger here (400 naming the parameter), kept on the payment.
    trigger_data_input: input.trigger_data_input,
  });
  const now = deps.now();
  const [bid] = await deps.db
    .insert(bids)
    .values({
      id: newId("bid"),
      appId,
      auctionId,
      shopperId: shopper.id,
      paymentId: payment.id,
      amount,
      currency: currency.code,
      conversion,
      status: "pending",
      idempotencyKey: idempotencyKey ?? null,
      requestHash,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning();
  if (!bid) {
    // The same key raced in twice: the other request's bid stands; this payment is let go.
    await deps.db.transaction((tx) => releasePayment(deps, tx, payment.id, "duplicate bid request"));
    const other = await replay();
    if (other) return other;
    throw new AppError(
      "conflict",
      "A request with this Idempotency-Key is still being processed; retry later",
    );
  }
  await requestAuthorization(deps, "shopper", payment, { payment_method: input.payment_method }, mandate);
  return presentBidToShopper(deps, bid.id);
}

/**
 * Runs whenever a bid's payment moves, under the auction's row lock (so bids on one auction are
 * settled one at a time):
 * - a pending bid whose payment reached `hold` is placed if it still beats the standing bid by the
 *   increment and the auction is open; the standing bid becomes `outbid`, and which outbid holds
 *   stay as runners-up is decided (`trimRunnersUp`), the others released in the same transaction.
 *   Otherwise the bid is refused and its own hold released; a failed payment refuses it.
 * - a winning bid's payment was captured, or failed: `followWinner`.
 * - a standing bid's payment was cancelled by the app: the bid no longer stands.
 */
export async function settleBid(deps: Deps, paymentId: string) {
  await deps.db.transaction(async (tx) => {
    const [found] = await tx.select().from(bids).where(eq(bids.paymentId, paymentId));
    if (!found) return;
    // The auction first, then payments: every writer of bids takes the locks in this order.
    const auction = await loadAuction(tx, found.appId, found.auctionId, true);
    const [bid] = await tx.select().from(bids).where(eq(bids.id, found.id));
    const payment = await paymentOfBid(tx, paymentId);
    if (bid.status === "won") return followWinner(deps, tx, auction, bid, payment);
    if (bid.status === "placed" && payment.status !== "hold") {
      await standingLost(deps, tx, auction, bid);
      return standAgain(deps, tx, auction);
    }
    if (bid.status !== "pending") return;
    if (payment.status === "failed" || payment.status === "cancelled") {
      await setBidStatus(deps, tx, bid, "refused", "the card was not authorised");
      return;
    }
    if (payment.status !== "hold") return;
    const [shopper] = await tx.select().from(shoppers).where(eq(shoppers.id, bid.shopperId));
    const minimum = await minimumNextBid(tx, auction);
    const refusal = !isOpen(auction, deps.now())
      ? "the auction had ended"
      : shopper.disabled
        ? "the shopper is disabled"
        : bid.amount < minimum
          ? "a higher bid was placed first"
          : null;
    if (refusal) {
      await setBidStatus(deps, tx, bid, "refused", refusal);
      await releasePayment(deps, tx, paymentId, `bid refused: ${refusal}`);
      return;
    }
    const outbid = await tx
      .select()
      .from(bids)
      .where(and(eq(bids.auctionId, auction.id), eq(bids.status, "placed")));
    for (const previous of outbid) {
      await setBidStatus(deps, tx, previous, "outbid", `outbid by ${bid.id}`);
    }
    await setBidStatus(deps, tx, bid, "placed", null);
    const kept = await trimRunnersUp(deps, tx, auction, bid);
    for (const previous of outbid) {
      await emitAuctionEvent(deps, tx, auction, "auction.outbid", {
        bid_id: previous.id,
        shopper_id: previous.shopperId,
        outbid_by: bid.id,
        hold_kept: kept.has(previous.id),
      });
    }
    await tx.update(auctions).set({ updatedAt: deps.now() }).where(eq(auctions.id, auction.id));
    await announceStanding(deps, tx, auction, bid);
    // A card authorisation lapses after the hold lifetime: look again shortly before it does.
    const lapses = liveUntil(deps, { ...bid, placedAt: deps.now() });
    if (lapses.getTime() + holdWindow(deps).marginMs < auction.endsAt.getTime()) {
      await deps.jobs.send(tx, HOLD_EXPIRING_JOB, { bidId: bid.id }, { startAfter: lapses });
    }
  });
}

/**
 * A bid's hold is about to lapse. Re-authorising needs the card again, which this service never
 * stores, so the bid is dropped: its hold released, `auction.bid_expired` sent so the app can ask
 * the shopper to bid again. This is the standing bid of an auction still open, or a runner-up
 * (open or closed auction) still keeping its hold.
 */
export async function expireHold(deps: Deps, bidId: string) {
  await deps.db.transaction(async (tx) => {
    const [found] = await tx.select().from(bids).where(eq(bids.id, bidId));
    if (!found) return;
    const auction = await loadAuction(tx, found.appId, found.auctionId, true);
    const [bid] = await tx.select().from(bids).where(eq(bids.id, bidId));
    const payment = await paymentOfBid(tx, bid.paymentId);
    const standing = bid.status === "placed" && auction.closedAt === null;
    const runnerUp = bid.status === "outbid" && payment.status === "hold";
    if (standing || runnerUp) await dropLapsedHold(deps, tx, auction, bid);
    if (standing) await standAgain(deps, tx, auction);
  });
}
