import { type SQL, sql } from "drizzle-orm";
import { type Executor, insertRow } from "../../platform/db/index.ts";
import { newId } from "../../platform/ids.ts";
import { type LedgerEvent, type LedgerLine, ledgerEntriesFor, type PaymentFigures } from "./entries.ts";
import { ledgerEntries } from "./tables.ts";

/**
 * Writes entries in the caller's transaction, as one multi-row INSERT. An event already in the
 * books (its transaction id and lines exist) is skipped: retried jobs and replayed requests post
 * once. The database checks at commit that every ledger transaction sums to zero per currency.
 */
export async function postLedger(tx: Executor, lines: LedgerLine[], at: Date): Promise<void> {
  if (lines.length === 0) return;
  await ledgerInsert(tx, lines, at);
}

function ledgerInsert(db: Executor, lines: LedgerLine[], at: Date) {
  return db
    .insert(ledgerEntries)
    .values(lines.map((l) => ({ ...l, id: newId("ble"), createdAt: at })))
    .onConflictDoNothing({ target: [ledgerEntries.transactionId, ledgerEntries.line] });
}

/**
 * `postEvents`'s INSERT as SQL, for a caller that makes it part of one statement with its own
 * write (the entries then commit with that write without a transaction); undefined when the
 * events post nothing.
 */
export function eventsInsert(
  db: Executor,
  figures: PaymentFigures,
  events: LedgerEvent[],
  at: Date,
): SQL | undefined {
  const lines = events.flatMap((event) => ledgerEntriesFor(event, figures));
  return lines.length === 0 ? undefined : ledgerInsert(db, lines, at).getSQL();
}

/**
 * `eventsInsert` for a statement whose writes are made only where `when` holds: one INSERT a line,
 * each a part of the caller's statement, an event already in the books skipped as ever.
 */
export function eventsInsertWhen(figures: PaymentFigures, events: LedgerEvent[], at: Date, when: SQL): SQL[] {
  return events
    .flatMap((event) => ledgerEntriesFor(event, figures))
    .map(
      (line) =>
        sql`${insertRow(ledgerEntries, { ...line, id: newId("ble"), createdAt: at }, when)}
        on conflict ("transaction_id", "line") do nothing`,
    );
}

/** `postLedger` of one or more events of one payment, in one statement. */
export async function postEvents(
  tx: Executor,
  figures: PaymentFigures,
  events: LedgerEvent[],
  at: Date,
): Promise<void> {
  await postLedger(
    tx,
    events.flatMap((event) => ledgerEntriesFor(event, figures)),
    at,
  );
}
