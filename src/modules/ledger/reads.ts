import { and, countDistinct, eq } from "drizzle-orm";
import type { Executor } from "../../platform/db/index.ts";
import { transferLines } from "./sql.ts";
import { ledgerEntries } from "./tables.ts";

/** How many refunds of a payment are in the books: the next is number this + 1. */
export async function refundsPosted(db: Executor, paymentId: string): Promise<number> {
  const [row] = await db
    .select({ n: countDistinct(ledgerEntries.transactionId) })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.paymentId, paymentId), eq(ledgerEntries.type, "refund")));
  return Number(row?.n ?? 0);
}

/** A seller transfer as the books have it, with its reversals (docs/ledger.md, "Transfers"). */
export interface BookedTransfer {
  id: string;
  paymentId: string;
  share: string;
  amount: bigint;
  currency: string;
  kycId: string | null;
  reversals: { id: string; amount: bigint; createdAt: Date }[];
  createdAt: Date;
}

/**
 * The transfers of these payments, read from the books: the `seller_paid` line of each transfer
 * and reversal (its provider id is the line's reference).
 */
export async function transfersOf(db: Executor, paymentIds: string[]): Promise<BookedTransfer[]> {
  if (paymentIds.length === 0) return [];
  const rows = await transferLines(db, paymentIds);
  const transfers = new Map<string, BookedTransfer>();
  for (const row of rows) {
    // `<payment>:transfer:<share>` and `<payment>:transfer_reversal:<share>:reversal…`.
    const share = row.transactionId.split(":")[2];
    const key = `${row.paymentId}:${share}`;
    const seller = row.account.slice("seller_paid:".length);
    if (row.type === "transfer") {
      transfers.set(key, {
        id: row.reference ?? "",
        paymentId: row.paymentId ?? "",
        share,
        amount: row.amount,
        currency: row.currency,
        kycId: seller === "app" ? null : seller,
        reversals: transfers.get(key)?.reversals ?? [],
        createdAt: row.createdAt,
      });
    } else {
      const transfer = transfers.get(key);
      transfer?.reversals.push({ id: row.reference ?? "", amount: -row.amount, createdAt: row.createdAt });
    }
  }
  return [...transfers.values()];
}
