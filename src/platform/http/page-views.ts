import { eq, getTableName, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { type Database, type Executor, prepared } from "../db/index.ts";
import { notFound } from "./errors.ts";

/** A table of records with a public page that counts its views. */
type ViewedTable = PgTable & { id: PgColumn; views: PgColumn };

/** The statement counting a view of a record of `table`, prepared once per table. */
const viewOf = (table: ViewedTable, name: string) => (db: Database) =>
  db
    .update(table as PgTable)
    .set({ views: sql`${table.views} + 1` } as never)
    .where(eq(table.id, sql.placeholder("id")))
    .returning()
    .prepare(name);

/**
 * The record a public page shows, its view counted in the statement that reads it (so concurrent
 * views all count), or the 404 naming `what`. Prepared: every visit of a hosted page runs it.
 */
export async function viewedRecord<T extends ViewedTable>(
  db: Executor,
  table: T,
  id: string,
  what: string,
): Promise<T["$inferSelect"]> {
  const name = `${getTableName(table)}_viewed`;
  const [row] = await prepared(db, name, viewOf(table, name)).execute({ id });
  if (!row) throw notFound(what);
  return row as T["$inferSelect"];
}
