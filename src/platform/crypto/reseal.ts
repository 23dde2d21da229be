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
