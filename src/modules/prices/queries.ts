import { type Column, eq, inArray, sql } from "drizzle-orm";
import { type Database, type Executor, prepared } from "../../platform/db/index.ts";
import type { PriceRow } from "./presenters.ts";
import { prices } from "./tables.ts";

/*
 * What other modules read of prices (payments, auctions): they call these instead of naming the
 * prices table (test/platform/layers.test.ts). Each is the one statement the caller ran before.
 */

// Read by the hosted checkout's page, its quote and its payment's answers: prepared, its SQL built
// once (per transaction, when given one) rather than on every request.
const priceById = (db: Database) =>
  db
    .select()
    .from(prices)
    .where(eq(prices.id, sql.placeholder("id")))
    .prepare("price_by_id");

/** The price `priceId`, of whichever app (the caller has checked the app), or undefined. */
export async function findPrice(db: Executor, priceId: string): Promise<PriceRow | undefined> {
  const [row] = await prepared(db, "price_by_id", priceById).execute({ id: priceId });
  return row;
}

/** The prices among `priceIds` that exist, in no particular order. */
export function findPrices(db: Executor, priceIds: string[]): Promise<PriceRow[]> {
  return db.select().from(prices).where(inArray(prices.id, priceIds));
}

/**
 * The price whose id is `priceId` (a column of the caller's statement, or a value), as a join of
 * the caller's own statement, so a page of payments is read with its prices in one statement:
 * `.innerJoin(part.table, part.on)`, selecting `part.columns` (the whole row).
 */
export function priceJoin(priceId: Column | string) {
  return { table: prices, on: eq(prices.id, priceId), columns: prices };
}
