import { and, eq } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Executor } from "../db/index.ts";
import { notFound } from "./errors.ts";

/** A table of records that belong to an app, keyed by their own id. */
type AppTable = PgTable & { appId: PgColumn; id: PgColumn };

/**
 * One of an app's records, or the 404 naming `what`: an id of another app's record is answered as
 * one that does not exist. `lock` takes the row lock a check-then-write needs (`update`), or keeps
 * the row from changing under a read that depends on it (`share`).
 */
export async function appRecord<T extends AppTable>(
  db: Executor,
  table: T,
  appId: string,
  id: string,
  what: string,
  lock?: "update" | "share",
): Promise<T["$inferSelect"]> {
  const query = db
    .select()
    .from(table as PgTable)
    .where(and(eq(table.appId, appId), eq(table.id, id)));
  const [row] = lock ? await query.for(lock) : await query;
  if (!row) throw notFound(what);
  return row as T["$inferSelect"];
}
