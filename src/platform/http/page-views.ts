import { eq, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Executor } from "../db/index.ts";
import { notFound } from "./errors.ts";

/** A table of records with a public page that counts its views. */
type ViewedTable = PgTable & { id: PgColumn; views: PgColumn };

/**
 * The record a public page shows, its view counted in the statement that reads it (so concurrent
 * views all count), or the 404 naming `what`.
 */
export async function viewedRecord<T extends ViewedTable>(
  db: Executor,
  table: T,
  id: string,
  what: string,
): Promise<T["$inferSelect"]> {
  const [row] = await db
    .update(table as PgTable)
    .set({ views: sql`${table.views} + 1` } as never)
    .where(eq(table.id, id))
    .returning();
  if (!row) throw notFound(what);
  return row as T["$inferSelect"];
}
