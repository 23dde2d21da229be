import { and, eq, getTableName, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { recordAudit } from "../audit/log.ts";
import type { Principal } from "../auth/principal.ts";
import { type Database, type Executor, prepared } from "../db/index.ts";
import { conflict, notFound } from "./errors.ts";

/** A table of records that belong to an app, keyed by their own id. */
type AppTable = PgTable & { appId: PgColumn; id: PgColumn };

/** A record of `table` by its key, with the lock asked for: built once per table and lock. */
const byId = (table: AppTable, name: string, lock?: "update" | "share") => (db: Database) => {
  const query = db
    .select()
    .from(table as PgTable)
    .where(eq(table.id, sql.placeholder("id")));
  return (lock ? query.for(lock) : query).prepare(name);
};

/**
 * One of an app's records, or the 404 naming `what`: an id of another app's record is answered as
 * one that does not exist. `lock` takes the row lock a check-then-write needs (`update`), or keeps
 * the row from changing under a read that depends on it (`share`).
 *
 * Read by its primary key alone, the app compared here: beside `app_id = $1`, a table without
 * statistics (PGlite never analyses one; PostgreSQL's autovacuum waits a minute) may be read through
 * an index that starts with `app_id`, every record of the app filtered by id (docs/decisions.md, "A
 * record is read by its primary key alone"). A lock asked for another app's record is held only
 * until the caller's transaction ends on the 404. Prepared per table and lock: most reads of one
 * record by id go through here.
 */
export async function appRecord<T extends AppTable>(
  db: Executor,
  table: T,
  appId: string,
  id: string,
  what: string,
  lock?: "update" | "share",
): Promise<T["$inferSelect"]> {
  const name = `${getTableName(table)}_record${lock ? `_for_${lock}` : ""}`;
  const [row] = await prepared(db, name, byId(table, name, lock)).execute({ id });
  if (!row || (row as { appId: unknown }).appId !== appId) throw notFound(what);
  return row as T["$inferSelect"];
}

/**
 * Changes one of an app's records in one statement and answers it as it now is, or the 404 naming
 * `what` (another app's record as one that does not exist).
 */
export async function updateAppRecord<T extends AppTable>(
  db: Executor,
  table: T,
  appId: string,
  id: string,
  what: string,
  values: Partial<T["$inferInsert"]>,
): Promise<T["$inferSelect"]> {
  const [row] = await db
    .update(table as PgTable)
    .set(values as never)
    .where(and(eq(table.appId, appId), eq(table.id, id)))
    .returning();
  if (!row) throw notFound(what);
  return row as T["$inferSelect"];
}

/** Whether `id` names one of the app's records: another app's record reads as none. */
export async function isAppRecord(
  db: Executor,
  table: AppTable,
  appId: string,
  id: string,
): Promise<boolean> {
  // By its primary key alone, as `appRecord` reads one.
  const [row] = await db
    .select({ appId: table.appId })
    .from(table as PgTable)
    .where(eq(table.id, id));
  return row?.appId === appId;
}

/**
 * Deletes one of an app's records, with its audit entry `action`, unless others still use it
 * (409, worded by `refusal` from how many do). The row is locked before the count, so a record
 * that starts using it at this moment waits (its foreign key check needs a share lock on the row)
 * and the count cannot miss it.
 */
export async function deleteUnusedAppRecord<T extends AppTable>(
  db: Database,
  actor: Principal,
  record: { table: T; appId: string; id: string; what: string; action: string },
  users: { count: (tx: Executor) => Promise<number>; refusal: (used: number) => string },
): Promise<void> {
  const { table, appId, id } = record;
  await db.transaction(async (tx) => {
    await appRecord(tx, table, appId, id, record.what, "update");
    const used = await users.count(tx);
    if (used > 0) throw conflict(users.refusal(used));
    await tx.delete(table as PgTable).where(eq(table.id, id));
    await recordAudit(tx, actor, { appId, action: record.action, targetId: id });
  });
}
