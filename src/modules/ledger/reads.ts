import { and, asc, count, countDistinct, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../../platform/db/index.ts";
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
  const rows = await db
    .select()
    .from(ledgerEntries)
    .where(
      and(
        inArray(ledgerEntries.paymentId, paymentIds),
        inArray(ledgerEntries.type, ["transfer", "transfer_reversal"]),
        sql`${ledgerEntries.account} like 'seller_paid:%'`,
      ),
    )
    .orderBy(asc(ledgerEntries.createdAt), asc(ledgerEntries.id));
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

/** Every ledger transaction that does not sum to zero in some currency (never, while the trigger stands). */
export async function unbalancedTransactions(db: Executor, appId: string) {
  return db
    .select({ transactionId: ledgerEntries.transactionId, currency: ledgerEntries.currency, lines: count() })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.appId, appId))
    .groupBy(ledgerEntries.transactionId, ledgerEntries.currency)
    .having(sql`sum(${ledgerEntries.amount}) <> 0`);
}
