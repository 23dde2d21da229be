import { and, asc, count, desc, eq, inArray } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import type { Executor, Tx } from "../../platform/db/index.ts";
import { conflict, invalid, notFound } from "../../platform/http/errors.ts";
import type { Page } from "../../platform/http/pagination.ts";
import { newId } from "../../platform/ids.ts";
import { parseAmount } from "../../platform/money/amount.ts";
import { type Currency, currencyOf } from "../../platform/money/currencies.ts";
import { getApp } from "../apps/service.ts";
import { requireAppRole } from "../members/access.ts";
import { payments } from "../payments/tables.ts";
import { assertSellerShare } from "../prices/fee-check.ts";
import { checkLinkedRecords } from "../prices/links.ts";
import { feeContext } from "../prices/service.ts";
import { prices } from "../prices/tables.ts";
import { CLOSE_AUCTION_JOB } from "./job-names.ts";
import { type AuctionRow, presentAuction } from "./presenters.ts";
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
  const price = (category: "bid" | "auction", name: string) => ({
    id: newId("price"),
    appId,
    // The bid price takes each bid's amount (at least the start); the end price is the sale.
    type: category === "bid" ? "dynamic" : "static",
    triggerId: input.trigger_id ?? null,
    currency: currency.code,
    amount,
    metadata: { auction_id: id },
    name,
    networkType,
    category,
    createdAt: now,
    updatedAt: now,
  });
  const bidPrice = price("bid", `${input.name} (bid)`);
  const endPrice = price("auction", input.name);
  await deps.db.transaction(async (tx) => {
    await tx.insert(prices).values([bidPrice, endPrice]);
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
      onBidPriceId: bidPrice.id,
      onEndPriceId: endPrice.id,
      createdAt: now,
      updatedAt: now,
    });
    await deps.jobs.send(tx, CLOSE_AUCTION_JOB, { auctionId: id }, { startAfter: endsAt });
  });
  return getAuction(deps, actor, appId, id);
}

export async function loadAuction(db: Executor, appId: string, auctionId: string, lock = false) {
  const query = db
    .select()
    .from(auctions)
    .where(and(eq(auctions.appId, appId), eq(auctions.id, auctionId)));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound("Auction");
  return row;
}

/** Every bid of the auctions, oldest first, with its shopper and payment. */
async function bidsOf(db: Executor, auctionIds: string[]) {
  if (auctionIds.length === 0) return [];
  const rows = await db
    .select({ bid: bids, shopper: shoppers, payment: payments })
    .from(bids)
    .innerJoin(shoppers, eq(shoppers.id, bids.shopperId))
    .innerJoin(payments, eq(payments.id, bids.paymentId))
    .where(inArray(bids.auctionId, auctionIds))
    .orderBy(asc(bids.createdAt), asc(bids.id));
  return rows.map((r) => ({ ...r.bid, shopper: r.shopper, payment: r.payment }));
}

async function present(deps: Deps, actor: Principal, rows: AuctionRow[]) {
  if (rows.length === 0) return [];
  const app = await getApp(deps, actor, rows[0].appId);
  const priceIds = rows.flatMap((r) => [r.onBidPriceId, r.onEndPriceId]);
  const [priceRows, bidRows] = await Promise.all([
    deps.db.select().from(prices).where(inArray(prices.id, priceIds)),
    bidsOf(
      deps.db,
      rows.map((r) => r.id),
    ),
  ]);
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
  const [view] = await present(deps, actor, [await loadAuction(deps.db, appId, auctionId)]);
  return view;
}

export async function listAuctions(deps: Deps, actor: Principal, appId: string, page: Page) {
  await requireAppRole(deps.db, actor, appId, "view");
  const mine = eq(auctions.appId, appId);
  const [rows, [{ total }]] = await Promise.all([
    deps.db
      .select()
      .from(auctions)
      .where(mine)
      .orderBy(desc(auctions.createdAt), desc(auctions.id))
      .limit(page.limit)
      .offset(page.offset),
    deps.db.select({ total: count() }).from(auctions).where(mine),
  ]);
  return { items: await present(deps, actor, rows), total };
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
    await tx
      .update(prices)
      .set({ amount, currency: currencyCode, updatedAt: now })
      .where(inArray(prices.id, [auction.onBidPriceId, auction.onEndPriceId]));
    if (input.name !== undefined) {
      await tx.update(prices).set({ name: input.name }).where(eq(prices.id, auction.onEndPriceId));
      await tx
        .update(prices)
        .set({ name: `${input.name} (bid)` })
        .where(eq(prices.id, auction.onBidPriceId));
    }
  });
  return auctionId;
}

export async function deleteAuction(deps: Deps, actor: Principal, appId: string, auctionId: string) {
  await requireAppRole(deps.db, actor, appId, "edit");
  await deps.db.transaction(async (tx) => {
    const auction = await loadAuction(tx, appId, auctionId, true);
    if (await hasBids(tx, auctionId)) throw conflict("An auction with bids cannot be deleted");
    await tx.delete(auctions).where(eq(auctions.id, auctionId));
    await tx.delete(prices).where(inArray(prices.id, [auction.onBidPriceId, auction.onEndPriceId]));
  });
}
