import { eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { recordAudit } from "../../platform/audit/log.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import type { Executor } from "../../platform/db/index.ts";
import { appRecord } from "../../platform/http/app-record.ts";
import { conflict, invalid, notFound } from "../../platform/http/errors.ts";
import { viewedRecord } from "../../platform/http/page-views.ts";
import type { Page } from "../../platform/http/pagination.ts";
import { pageOfPreparedRows, scopedTo } from "../../platform/http/prepared-list.ts";
import { newId } from "../../platform/ids.ts";
import { parseAmount } from "../../platform/money/amount.ts";
import { type Currency, currencyOf } from "../../platform/money/currencies.ts";
import type { AppType } from "../../platform/money/fees.ts";
import { requireAppRole } from "../apps/access.ts";
import { appFeeTerms } from "../apps/queries.ts";
import { assertSellerShare } from "./fee-check.ts";
import { checkLinkedRecords } from "./links.ts";
import { presentPrice, presentPublicPrice } from "./presenters.ts";
import { prices } from "./tables.ts";

export interface PriceInput {
  name?: string;
  amount?: number | string;
  currency?: string;
  type?: "static" | "dynamic";
  category?: "payment" | "bid" | "auction";
  network_type?: "mainnet" | "testnet";
  chain?: "near" | "evm" | "wax" | "solana" | null;
  contract?: string | null;
  metadata?: Record<string, unknown>;
  trigger_id?: string | null;
  kyc_id?: string | null;
  expires_at?: string | null;
  expired?: boolean;
}

type PriceRow = typeof prices.$inferSelect;

export async function feeContext(db: Executor, appId: string) {
  const app = await appFeeTerms(db, appId);
  if (!app) throw notFound("App");
  return { appType: app.appType as AppType, appFeeBps: app.appFeeBps };
}

/** Validates an amount in its currency, then the fee split it leads to. */
async function checkedAmount(
  deps: Deps,
  db: Executor,
  appId: string,
  value: number | string,
  currency: Currency,
  type: string,
): Promise<bigint> {
  const amount = parseAmount(value, currency, "/body/amount");
  // A dynamic price's amount is a minimum the shopper may raise, so zero is meaningful there.
  if (amount === 0n && type === "static")
    throw invalid("/body/amount", "must be greater than 0 for a static price");
  await assertSellerShare(deps, await feeContext(db, appId), amount, currency);
  return amount;
}

const toDate = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null ? null : new Date(value);

export async function createPrice(
  deps: Deps,
  actor: Principal,
  appId: string,
  input: PriceInput & { name: string; amount: number | string; currency: string },
) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const currency = currencyOf(input.currency, "/body/currency");
  const type = input.type ?? "static";
  const amount = await checkedAmount(deps, deps.db, appId, input.amount, currency, type);
  await checkLinkedRecords(deps.db, appId, { triggerId: input.trigger_id, kycId: input.kyc_id });
  const row = await deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(prices)
      .values({
        id: newId("price"),
        appId,
        type,
        kycId: input.kyc_id ?? null,
        triggerId: input.trigger_id ?? null,
        currency: currency.code,
        amount,
        metadata: input.metadata ?? {},
        name: input.name,
        expiresAt: toDate(input.expires_at) ?? null,
        // Sandbox servers point at test networks unless told otherwise.
        networkType: input.network_type ?? (deps.config.sandbox ? "testnet" : "mainnet"),
        contract: input.contract ?? null,
        chain: input.chain ?? null,
        category: input.category ?? "payment",
      })
      .returning();
    await recordAudit(tx, actor, { appId, action: "price.create", targetId: created.id });
    return created;
  });
  return presentPrice(row, deps.now());
}

export async function loadPrice(
  db: Executor,
  appId: string,
  priceId: string,
  lock = false,
): Promise<PriceRow> {
  return appRecord(db, prices, appId, priceId, "Price", lock ? "update" : undefined);
}

export async function getPrice(deps: Deps, actor: Principal, appId: string, priceId: string) {
  await requireAppRole(deps.db, actor, appId, "view");
  return presentPrice(await loadPrice(deps.db, appId, priceId), deps.now());
}

export async function listPrices(deps: Deps, actor: Principal, appId: string, page: Page) {
  await requireAppRole(deps.db, actor, appId, "view");
  // A list tolerates a replica's lag (DATABASE_REPLICA_URL); the role check above reads the primary.
  const reader = { db: deps.lagging, config: deps.config };
  const { rows, total, neighbours } = await pageOfPreparedRows(reader, page, {
    name: "prices_list",
    table: prices,
    // An app sells a few things: the first page is usually the whole list, and its own count.
    ...scopedTo(prices.appId, appId, undefined, { countAfterPage: true }),
    newestFirst: true,
  });
  const now = deps.now();
  return { items: rows.map((row) => presentPrice(row, now)), total, neighbours };
}

export async function updatePrice(
  deps: Deps,
  actor: Principal,
  appId: string,
  priceId: string,
  input: PriceInput,
) {
  await requireAppRole(deps.db, actor, appId, "edit");
  if (input.currency !== undefined && input.amount === undefined) {
    // The same minor units mean another amount in another currency: make the caller say which.
    throw invalid("/body/amount", "is required when the currency changes");
  }
  // The row is locked while the change is checked against it, so two concurrent changes cannot
  // each pass a check the other one invalidates (e.g. type static and amount 0).
  const row = await deps.db.transaction(async (tx) => {
    const current = await loadPrice(tx, appId, priceId, true);
    const money = [input.amount, input.currency, input.type, input.category];
    if (
      current.category !== "payment" &&
      money.some((v) => v !== undefined) &&
      (await deps.referrers.auctionOfPrice(tx, priceId))
    ) {
      // The auction's amount rules its prices: PATCH /auctions/{id} changes both together.
      throw conflict("This price belongs to an auction: change the auction instead");
    }
    const type = input.type ?? current.type;
    let amount: bigint | undefined;
    let currencyCode: string | undefined;
    if (input.amount !== undefined || input.type !== undefined) {
      const currency = currencyOf(input.currency ?? current.currency, "/body/currency");
      amount =
        input.amount === undefined
          ? current.amount
          : await checkedAmount(deps, tx, appId, input.amount, currency, type);
      if (amount === 0n && type === "static") {
        throw invalid("/body/type", "a static price needs an amount above 0");
      }
      currencyCode = currency.code;
    }
    await checkLinkedRecords(tx, appId, { triggerId: input.trigger_id, kycId: input.kyc_id });
    const [updated] = await tx
      .update(prices)
      .set({
        name: input.name,
        amount,
        currency: currencyCode,
        type: input.type,
        category: input.category,
        networkType: input.network_type,
        chain: input.chain,
        contract: input.contract,
        metadata: input.metadata,
        triggerId: input.trigger_id,
        kycId: input.kyc_id,
        expiresAt: toDate(input.expires_at),
        expired: input.expired,
        updatedAt: deps.now(),
      })
      .where(eq(prices.id, priceId))
      .returning();
    await recordAudit(tx, actor, { appId, action: "price.update", targetId: priceId });
    return updated;
  });
  return presentPrice(row, deps.now());
}

/** Deletes a price, or expires it when payments refer to it (their records keep pointing at it). */
export async function deletePrice(deps: Deps, actor: Principal, appId: string, priceId: string) {
  await requireAppRole(deps.db, actor, appId, "edit");
  await deps.db.transaction(async (tx) => {
    await appRecord(tx, prices, appId, priceId, "Price", "update");
    // An auction's two prices live and die with it (DELETE /auctions/{app_id}/{auction_id}).
    const auction = await deps.referrers.auctionOfPrice(tx, priceId);
    if (auction) throw conflict(`This price belongs to the auction ${auction.id}: delete the auction`);
    if (await deps.referrers.priceHasPayments(tx, priceId)) {
      await tx.update(prices).set({ expired: true, updatedAt: deps.now() }).where(eq(prices.id, priceId));
    } else {
      await tx.delete(prices).where(eq(prices.id, priceId));
    }
    await recordAudit(tx, actor, { appId, action: "price.delete", targetId: priceId });
  });
}

/** The price a public page shows, its view counted (the hosted checkout renders the row). */
export function viewPrice(deps: Deps, priceId: string): Promise<PriceRow> {
  return viewedRecord(deps.db, prices, priceId, "Price");
}

/** The public page's read, which counts the view. */
export async function viewPublicPrice(deps: Deps, priceId: string) {
  return presentPublicPrice(await viewPrice(deps, priceId), deps.now());
}
