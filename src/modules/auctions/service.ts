import { and, asc, eq, inArray, type SQL } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import type { Executor, Tx } from "../../platform/db/index.ts";
import { appRecord } from "../../platform/http/app-record.ts";
import { conflict, invalid, notFound } from "../../platform/http/errors.ts";
import { countUpTo, type Page, pageOfRows, pageWindow, type Window } from "../../platform/http/pagination.ts";
import { newId } from "../../platform/ids.ts";
import { parseAmount } from "../../platform/money/amount.ts";
import { type Currency, currencyOf } from "../../platform/money/currencies.ts";
import { requireAppRole } from "../apps/access.ts";
import { getApp, shopperAppView } from "../apps/service.ts";
import { paymentJoin } from "../payments/auction-hooks.ts";
import { assertSellerShare } from "../prices/fee-check.ts";
import {
  type AuctionPriceIds,
  deleteAuctionPrices,
  insertAuctionPrices,
  updateAuctionPrices,
} from "../prices/for-auctions.ts";
import { checkLinkedRecords } from "../prices/links.ts";
import { findPrice, findPrices } from "../prices/queries.ts";
import { feeContext } from "../prices/service.ts";
import { CLOSE_AUCTION_JOB } from "./job-names.ts";
import { type AuctionRow, presentAuction, presentBid } from "./presenters.ts";
import { auctions, bids, shoppers } from "./tables.ts";

export interface AuctionInput {
  name: string;
  amount: number | string;
  currency: string;
  ends_at: string;
  min_increment?: number | string;
  trigger_id?: string | null;
  network_type?: "mainnet" | "testnet";
}

async function checkedStart(
  deps: Deps,
  db: Executor,
  appId: string,
  value: number | string,
  currency: Currency,
) {
  const amount = parseAmount(value, currency, "/body/amount");
  if (amount === 0n) throw invalid("/body/amount", "must be greater than 0");
  await assertSellerShare(deps, await feeContext(db, appId), amount, currency);
  return amount;
}

export async function createAuction(deps: Deps, actor: Principal, appId: string, input: AuctionInput) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const currency = currencyOf(input.currency, "/body/currency");
  const endsAt = new Date(input.ends_at);
  if (endsAt.getTime() <= deps.now().getTime()) throw invalid("/body/ends_at", "must be in the future");
  const amount = await checkedStart(deps, deps.db, appId, input.amount, currency);
  // One minor unit by default: any higher bid beats the standing one.
  const minIncrement =
    input.min_increment === undefined
      ? 1n
      : parseAmount(input.min_increment, currency, "/body/min_increment");
  if (minIncrement === 0n) throw invalid("/body/min_increment", "must be greater than 0");
  await checkLinkedRecords(deps.db, appId, { triggerId: input.trigger_id });
  const networkType = input.network_type ?? (deps.config.sandbox ? "testnet" : "mainnet");
  const id = newId("auc");
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const priceIds = await insertAuctionPrices(
      tx,
      {
        appId,
        auctionId: id,
        name: input.name,
        triggerId: input.trigger_id ?? null,
        currency: currency.code,
        amount,
        networkType,
      },
      now,
    );
    await tx.insert(auctions).values({
      id,
      appId,
      name: input.name,
      amount,
      currency: currency.code,
      minIncrement,
      endsAt,
      triggerId: input.trigger_id ?? null,
      networkType,
      onBidPriceId: priceIds.bid,
      onEndPriceId: priceIds.end,
      createdAt: now,
      updatedAt: now,
    });
    await deps.jobs.send(tx, CLOSE_AUCTION_JOB, { auctionId: id }, { startAfter: endsAt });
  });
  return getAuction(deps, actor, appId, id);
}

export async function loadAuction(db: Executor, appId: string, auctionId: string, lock = false) {
  return appRecord(db, auctions, appId, auctionId, "Auction", lock ? "update" : undefined);
}

/** The auction's two prices, as the prices module names them. */
export const priceIdsOf = (auction: AuctionRow): AuctionPriceIds => ({
  bid: auction.onBidPriceId,
  end: auction.onEndPriceId,
});

/** The price bids on `auction` are paid with: its payments are presented with it. */
async function bidPriceOf(db: Executor, auction: AuctionRow) {
  const price = await findPrice(db, auction.onBidPriceId);
  if (!price) throw new Error(`Auction ${auction.id} lost its bid price`);
  return price;
}

/** Bids matching `where`, oldest first, each with its shopper and payment. */
async function bidsWhere(db: Executor, where: SQL | undefined, window?: Window) {
  const payment = paymentJoin(bids.paymentId);
  const query = db
    .select({ bid: bids, shopper: shoppers, payment: payment.columns })
    .from(bids)
    .innerJoin(shoppers, eq(shoppers.id, bids.shopperId))
    .innerJoin(payment.table, payment.on)
    .where(and(where, window?.where))
    .orderBy(...(window?.orderBy ?? [asc(bids.createdAt), asc(bids.id)]));
  const rows = window ? await query.limit(window.limit).offset(window.offset) : await query;
  return rows.map((r) => ({ ...r.bid, shopper: r.shopper, payment: r.payment }));
}

/** Every bid of the auctions, oldest first, with its shopper and payment. */
async function bidsOf(db: Executor, auctionIds: string[]) {
  if (auctionIds.length === 0) return [];
  return bidsWhere(db, inArray(bids.auctionId, auctionIds));
}

/** One bid as the interface's Bid, for the shopper who placed it (the bid's 202 and its replays). */
export async function presentBidToShopper(deps: Deps, bidId: string) {
  const [bid] = await bidsWhere(deps.db, eq(bids.id, bidId));
  const [auction] = await deps.db.select().from(auctions).where(eq(auctions.id, bid.auctionId));
  const [price, app] = await Promise.all([
    bidPriceOf(deps.db, auction),
    shopperAppView(deps.db, bid.appId, deps.config.publicUrl),
  ]);
  return presentBid(bid, { ...bid, app, price, now: deps.now() });
}

/** `GET /auctions/{app_id}/{auction_id}/bids`: the auction's bids, oldest first. */
export async function listBids(deps: Deps, actor: Principal, appId: string, auctionId: string, page: Page) {
  await requireAppRole(deps.db, actor, appId, "view");
  const auction = await loadAuction(deps.db, appId, auctionId);
  const mine = eq(bids.auctionId, auction.id);
  const window = await pageWindow(deps.db, page, {
    table: bids,
    scope: mine,
    newestFirst: false,
  });
  const [fetched, total, app, price] = await Promise.all([
    bidsWhere(deps.db, mine, window),
    countUpTo(deps, bids, mine),
    getApp(deps, actor, appId),
    bidPriceOf(deps.db, auction),
  ]);
  const { rows, neighbours } = window.finish(fetched, (bid) => bid.id);
  const now = deps.now();
  return { items: rows.map((bid) => presentBid(bid, { ...bid, app, price, now })), total, neighbours };
}

export async function getBid(deps: Deps, actor: Principal, appId: string, auctionId: string, bidId: string) {
  await requireAppRole(deps.db, actor, appId, "view");
  const auction = await loadAuction(deps.db, appId, auctionId);
  const [bid] = await bidsWhere(deps.db, and(eq(bids.auctionId, auction.id), eq(bids.id, bidId)));
  if (!bid) throw notFound("Bid");
  const [app, price] = await Promise.all([getApp(deps, actor, appId), bidPriceOf(deps.db, auction)]);
  return presentBid(bid, { ...bid, app, price, now: deps.now() });
}

/**
 * Auction rows and their bids read in one snapshot. The close commits the winner's bid and the
 * auction's `expired` together; two separate reads could see one without the other on PostgreSQL.
 */
async function readWithBids<T>(deps: Deps, readRows: (tx: Tx) => Promise<T & { rows: AuctionRow[] }>) {
  return deps.db.transaction(
    async (tx) => {
      const read = await readRows(tx);
      const bidRows = await bidsOf(
        tx,
        read.rows.map((r) => r.id),
      );
      return { ...read, bidRows };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

async function present(
  deps: Deps,
  actor: Principal,
  rows: AuctionRow[],
  bidRows: Awaited<ReturnType<typeof bidsOf>>,
) {
  if (rows.length === 0) return [];
  const app = await getApp(deps, actor, rows[0].appId);
  const priceIds = rows.flatMap((r) => [r.onBidPriceId, r.onEndPriceId]);
  const priceRows = await findPrices(deps.db, priceIds);
  const byId = new Map(priceRows.map((p) => [p.id, p]));
  const now = deps.now();
  return rows.map((row) => {
    const bidPrice = byId.get(row.onBidPriceId);
    const endPrice = byId.get(row.onEndPriceId);
    if (!bidPrice || !endPrice) throw new Error(`Auction ${row.id} lost its prices`);
    return presentAuction(row, {
      app,
      bidPrice,
      endPrice,
      bids: bidRows.filter((b) => b.auctionId === row.id),
      now,
    });
  });
}

export async function getAuction(deps: Deps, actor: Principal, appId: string, auctionId: string) {
  await requireAppRole(deps.db, actor, appId, "view");
  const { rows, bidRows } = await readWithBids(deps, async (tx) => ({
    rows: [await loadAuction(tx, appId, auctionId)],
  }));
  const [view] = await present(deps, actor, rows, bidRows);
  return view;
}

export async function listAuctions(deps: Deps, actor: Principal, appId: string, page: Page) {
  await requireAppRole(deps.db, actor, appId, "view");
  // The page, its count and its bids are read in one snapshot.
  const { rows, total, neighbours, bidRows } = await readWithBids(deps, (tx) =>
    pageOfRows({ db: tx, config: deps.config }, page, {
      table: auctions,
      scope: eq(auctions.appId, appId),
      newestFirst: true,
    }),
  );
  return { items: await present(deps, actor, rows, bidRows), total, neighbours };
}

async function hasBids(tx: Tx, auctionId: string) {
  const [row] = await tx.select({ id: bids.id }).from(bids).where(eq(bids.auctionId, auctionId)).limit(1);
  return row !== undefined;
}

/** `PATCH /auctions/{id}`: the path names no app, so the auction's own app is checked (404 otherwise). */
export async function updateAuction(
  deps: Deps,
  actor: Principal,
  auctionId: string,
  input: { amount?: number | string; currency?: string; name?: string },
) {
  const [found] = await deps.db
    .select({ appId: auctions.appId })
    .from(auctions)
    .where(eq(auctions.id, auctionId));
  if (!found) throw notFound("Auction");
  await requireAppRole(deps.db, actor, found.appId, "edit").catch((error) => {
    // Another tenant's auction is not revealed, whatever the caller's role elsewhere.
    throw error.code === "forbidden" ? error : notFound("Auction");
  });
  if (input.currency !== undefined && input.amount === undefined) {
    throw invalid("/body/amount", "is required when the currency changes");
  }
  await deps.db.transaction(async (tx) => {
    const auction = await loadAuction(tx, found.appId, auctionId, true);
    let amount: bigint | undefined;
    let currencyCode: string | undefined;
    if (input.amount !== undefined) {
      if (await hasBids(tx, auctionId))
        throw conflict("The amount and currency cannot change after the first bid");
      if (auction.expired) throw conflict("The auction has ended");
      const currency = currencyOf(input.currency ?? auction.currency, "/body/currency");
      amount = await checkedStart(deps, tx, auction.appId, input.amount, currency);
      currencyCode = currency.code;
    }
    const now = deps.now();
    await tx
      .update(auctions)
      .set({ name: input.name, amount, currency: currencyCode, updatedAt: now })
      .where(eq(auctions.id, auctionId));
    await updateAuctionPrices(
      tx,
      priceIdsOf(auction),
      { amount, currency: currencyCode, name: input.name },
      now,
    );
  });
  return auctionId;
}

export async function deleteAuction(deps: Deps, actor: Principal, appId: string, auctionId: string) {
  await requireAppRole(deps.db, actor, appId, "edit");
  await deps.db.transaction(async (tx) => {
    const auction = await loadAuction(tx, appId, auctionId, true);
    if (await hasBids(tx, auctionId)) throw conflict("An auction with bids cannot be deleted");
    await tx.delete(auctions).where(eq(auctions.id, auctionId));
    await deleteAuctionPrices(tx, priceIdsOf(auction));
  });
}
