import { and, asc, count, eq, gte, inArray, like, lte, or, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../platform/db/index.ts";
import { ACCOUNTS } from "./entries.ts";
import { ledgerEntries } from "./tables.ts";

/*
 * The books' statements that hold hand-written SQL, one named function each, as pg-boss keeps its
 * SQL in `plans.ts`: each takes the executor to run on (the database or a caller's transaction)
 * and answers the rows as the database gives them; what the rows mean is decided by the caller.
 * Statements Drizzle's builder writes whole (`refundsPosted`, the list of entries) stay beside
 * their callers.
 */

/** A period of the books, both ends included; either may be open. */
export interface Instants {
  from?: Date;
  to?: Date;
}

function periodConditions(appId: string, period: Instants): SQL[] {
  const conditions: SQL[] = [eq(ledgerEntries.appId, appId)];
  if (period.from) conditions.push(gte(ledgerEntries.createdAt, period.from));
  if (period.to) conditions.push(lte(ledgerEntries.createdAt, period.to));
  return conditions;
}

/**
 * Up to `limit` of an app's entries in the period, oldest first, after the keyset `after`
 * (`created_at`, `id`), for the CSV export. `createdAt` is text with microseconds (UTC, `Z`): the
 * next page's keyset must not lose them to a JavaScript Date.
 */
export function entriesAfter(
  db: Executor,
  appId: string,
  period: Instants,
  after: { createdAt: string; id: string } | undefined,
  limit: number,
) {
  const keyset = after
    ? [
        sql`(${ledgerEntries.createdAt}, ${ledgerEntries.id}) > (${after.createdAt}::timestamptz, ${after.id})`,
      ]
    : [];
  return db
    .select({
      id: ledgerEntries.id,
      transactionId: ledgerEntries.transactionId,
      createdAt: sql<string>`to_char(${ledgerEntries.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
      type: ledgerEntries.type,
      account: ledgerEntries.account,
      currency: ledgerEntries.currency,
      amount: ledgerEntries.amount,
      paymentId: ledgerEntries.paymentId,
      reference: ledgerEntries.reference,
    })
    .from(ledgerEntries)
    .where(and(...periodConditions(appId, period), ...keyset))
    .orderBy(asc(ledgerEntries.createdAt), asc(ledgerEntries.id))
    .limit(limit);
}

/**
 * How much each seller account (`seller_payable:…`, `seller_paid:…`) of an app moved in the
 * period, per currency and entry type; `total` is the sum in minor units, as text.
 */
export function sellerMovements(db: Executor, appId: string, period: Instants) {
  return db
    .select({
      account: ledgerEntries.account,
      currency: ledgerEntries.currency,
      type: ledgerEntries.type,
      total: sql<string>`sum(${ledgerEntries.amount})`,
    })
    .from(ledgerEntries)
    .where(and(...periodConditions(appId, period), sql`${ledgerEntries.account} like 'seller_%'`))
    .groupBy(ledgerEntries.account, ledgerEntries.currency, ledgerEntries.type);
}

/**
 * Each seller payable account's balance of an app at `to` (everything before it; all of it when
 * absent), per currency; `total` in minor units, as text.
 */
export function sellersOwed(db: Executor, appId: string, to: Date | undefined) {
  return db
    .select({
      account: ledgerEntries.account,
      currency: ledgerEntries.currency,
      total: sql<string>`sum(${ledgerEntries.amount})`,
    })
    .from(ledgerEntries)
    .where(and(...periodConditions(appId, { to }), sql`${ledgerEntries.account} like 'seller_payable:%'`))
    .groupBy(ledgerEntries.account, ledgerEntries.currency);
}

/**
 * The `seller_paid` line of every transfer and transfer reversal of these payments, oldest first
 * (their provider id is the line's reference). `paymentIds` must not be empty.
 */
export function transferLines(db: Executor, paymentIds: string[]) {
  return db
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
}

/** Every ledger transaction that does not sum to zero in some currency (never, while the trigger stands). */
export function unbalancedTransactions(db: Executor, appId: string) {
  return db
    .select({ transactionId: ledgerEntries.transactionId, currency: ledgerEntries.currency, lines: count() })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.appId, appId))
    .groupBy(ledgerEntries.transactionId, ledgerEntries.currency)
    .having(sql`sum(${ledgerEntries.amount}) <> 0`);
}

/**
 * What the books say of each of these payments, one row a payment that has entries: `captured`
 * (out of the held account by captures), `refunded` (into the clearing account by refunds) and
 * `refundsMade` (into the refunds account when settled), in minor units, as text.
 */
export function paymentTotals(db: Executor, paymentIds: string[]) {
  return db
    .select({
      paymentId: ledgerEntries.paymentId,
      captured: sql<string>`coalesce(sum(-${ledgerEntries.amount}) filter (where ${ledgerEntries.type} = 'capture' and ${ledgerEntries.account} = ${ACCOUNTS.held}), 0)`,
      refunded: sql<string>`coalesce(sum(${ledgerEntries.amount}) filter (where ${ledgerEntries.type} = 'refund' and ${ledgerEntries.account} = ${ACCOUNTS.clearing}), 0)`,
      refundsMade: sql<string>`coalesce(sum(${ledgerEntries.amount}) filter (where ${ledgerEntries.type} = 'refund_settled' and ${ledgerEntries.account} = ${ACCOUNTS.refunds}), 0)`,
    })
    .from(ledgerEntries)
    .where(inArray(ledgerEntries.paymentId, paymentIds))
    .groupBy(ledgerEntries.paymentId);
}

/**
 * How much each balance-bearing account of an app (its own, the held one, the seller payables)
 * moved per currency and UTC day (`YYYY-MM-DD`) from `start` on; everything before `start` is
 * summed under the day null, the opening balance. `sum` in minor units, as text.
 */
export function dailyMovements(db: Executor, appId: string, start: Date) {
  const dayOf = sql<
    string | null
  >`case when ${ledgerEntries.createdAt} < ${start.toISOString()}::timestamptz then null else to_char(${ledgerEntries.createdAt} at time zone 'UTC', 'YYYY-MM-DD') end`;
  return (
    db
      .select({
        currency: ledgerEntries.currency,
        account: ledgerEntries.account,
        day: dayOf,
        sum: sql<string>`sum(${ledgerEntries.amount})`,
      })
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.appId, appId),
          or(
            eq(ledgerEntries.account, ACCOUNTS.app),
            eq(ledgerEntries.account, ACCOUNTS.held),
            like(ledgerEntries.account, "seller_payable:%"),
          ),
        ),
      )
      // By position: the day's expression carries a bound parameter, so repeating it would not
      // read to the database as the same expression as the selected one.
      .groupBy(sql`1, 2, 3`)
  );
}

/** Every account's balance of an app, per currency; `balance` in minor units, as text. */
export function accountTotals(db: Executor, appId: string) {
  return db
    .select({
      currency: ledgerEntries.currency,
      account: ledgerEntries.account,
      balance: sql<string>`sum(${ledgerEntries.amount})`,
    })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.appId, appId))
    .groupBy(ledgerEntries.currency, ledgerEntries.account);
}
