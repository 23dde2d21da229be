import type { Executor } from "../../platform/db/index.ts";
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
  await tx
    .insert(ledgerEntries)
    .values(lines.map((l) => ({ ...l, id: newId("ble"), createdAt: at })))
    .onConflictDoNothing({ target: [ledgerEntries.transactionId, ledgerEntries.line] });
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
