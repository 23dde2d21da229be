import { and, asc, eq, gt, isNotNull } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Database } from "../db/index.ts";
import type { Custody } from "./custody.ts";

/** One stored sealed value: the row's key, the context it is bound to, and its text form. */
export interface SealedValue {
  key: string;
  context: string;
  sealed: string;
}

/**
 * A column (or a table's envelope columns) holding sealed values, as the module that owns it
 * reads and writes it. `page` answers up to `limit` values whose key sorts after `after`, in key
 * order; `replace` writes `next` only where the row still holds `value.sealed`, and answers
 * whether it did (a row changed meanwhile was sealed under the current key anyway).
 */
export interface SealedColumn {
  page(after: string, limit: number): Promise<SealedValue[]>;
  replace(value: SealedValue, next: string): Promise<boolean>;
}

/**
 * The one reseal routine, for `npm run rotate-master-key` (src/master-key-rotation.ts): moves
 * every value of a column to the current master key, page by page, skipping values already under
 * it. Each row is written only if unchanged since read, so it can run while the service is up and
 * again after an interruption. Answers how many values it moved.
 */
export async function resealColumn(custody: Custody, column: SealedColumn, batchSize = 500): Promise<number> {
  let moved = 0;
  let after = "";
  for (;;) {
    const values = await column.page(after, batchSize);
    for (const value of values) {
      const next = custody.resealText(value.context, value.sealed);
      if (next !== undefined && (await column.replace(value, next))) moved++;
    }
    if (values.length < batchSize) return moved;
    after = values[values.length - 1].key;
  }
}

/** A table whose rows are keyed by a text `id`, as most tables holding sealed values are. */
type KeyedTable = PgTable & { id: PgColumn };

/**
 * A text column of sealed values in a table keyed by `id`, as the reseal routine reads it: the
 * non-null values in id order, each written back only where the row still holds the value read
 * (one changed or dropped meanwhile is already sealed under the current key, or gone).
 */
export function sealedTextColumn<T extends KeyedTable>(
  db: Database,
  table: T,
  name: keyof T["$inferInsert"] & keyof T & string,
  context: (id: string) => string,
): SealedColumn {
  const column = table[name] as PgColumn;
  return {
    async page(after, limit) {
      const rows = await db
        .select({ id: table.id, sealed: column })
        .from(table as PgTable)
        .where(and(gt(table.id, after), isNotNull(column)))
        .orderBy(asc(table.id))
        .limit(limit);
      return (rows as { id: string; sealed: string }[]).map((row) => ({
        key: row.id,
        context: context(row.id),
        sealed: row.sealed,
      }));
    },
    async replace(value, next) {
      const updated = await db
        .update(table)
        .set({ [name]: next } as T["$inferInsert"])
        .where(and(eq(table.id, value.key), eq(column, value.sealed)))
        .returning({ id: table.id });
      return updated.length > 0;
    },
  };
}
