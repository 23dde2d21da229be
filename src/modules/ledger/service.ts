import { eq, gte, lte } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { invalid } from "../../platform/http/errors.ts";
import type { Page } from "../../platform/http/pagination.ts";
import { Filters, pageOfPreparedRows, scopedTo } from "../../platform/http/prepared-list.ts";
import { formatAmountText } from "../../platform/money/amount.ts";
import { currencyOf } from "../../platform/money/currencies.ts";
import { requireAppRole } from "../apps/access.ts";
import { ACCOUNTS } from "./entries.ts";
import { presentEntry } from "./presenters.ts";
import { accountTotals } from "./sql.ts";
import { type LedgerType, ledgerEntries } from "./tables.ts";

// Reading the books: balances per currency and the entries, newest first. Both are for the app's
// members (owners and developers alike: the same people who read its payments).

export interface EntryFilters {
  payment_id?: string;
  type?: LedgerType;
  "created[gte]"?: string;
  "created[lte]"?: string;
}

function dateOf(value: string | undefined, field: string): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw invalid(`/query/${field}`, "must be a date-time (UTC)");
  return date;
}

/** What the filters keep of the app's entries, prepared by shape (`pageOfPrepared`). */
function entryFilters(filters: EntryFilters): Filters {
  const kept = new Filters();
  if (filters.payment_id) kept.add("payment_id", (id) => eq(ledgerEntries.paymentId, id), filters.payment_id);
  if (filters.type) kept.add("type", (type) => eq(ledgerEntries.type, type), filters.type);
  const from = dateOf(filters["created[gte]"], "created[gte]");
  const to = dateOf(filters["created[lte]"], "created[lte]");
  if (from) kept.add("from", (at) => gte(ledgerEntries.createdAt, at), from);
  if (to) kept.add("to", (at) => lte(ledgerEntries.createdAt, at), to);
  return kept;
}

export async function listBalanceTransactions(
  deps: Deps,
  actor: Principal,
  appId: string,
  page: Page,
  filters: EntryFilters,
) {
  await requireAppRole(deps.db, actor, appId, "view");
  const { rows, total, neighbours } = await pageOfPreparedRows(deps, page, {
    name: "ledger_entries_list",
    table: ledgerEntries,
    ...scopedTo(ledgerEntries.appId, appId, entryFilters(filters)),
    newestFirst: true,
  });
  return { items: rows.map(presentEntry), total, neighbours };
}

/** Every account's balance of an app, per currency: `currency -> account -> minor units`. */
export async function accountBalances(db: Deps["db"], appId: string) {
  const rows = await accountTotals(db, appId);
  const books = new Map<string, Map<string, bigint>>();
  for (const row of rows) {
    if (!books.has(row.currency)) books.set(row.currency, new Map());
    books.get(row.currency)!.set(row.account, BigInt(row.balance));
  }
  return books;
}

export async function getBalances(deps: Deps, actor: Principal, appId: string) {
  await requireAppRole(deps.db, actor, appId, "view");
  const books = await accountBalances(deps.db, appId);
  const balances = [...books]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, accounts]) => {
      const currency = currencyOf(code, "currency");
      const of = (account: string) => accounts.get(account) ?? 0n;
      const sumOf = (prefix: string) =>
        [...accounts].filter(([a]) => a.startsWith(prefix)).reduce((s, [, v]) => s + v, 0n);
      const text = (minor: bigint) => formatAmountText(minor, currency);
      return {
        currency: code,
        available: text(of(ACCOUNTS.app)),
        pending: text(of(ACCOUNTS.held)),
        owed_to_sellers: text(sumOf("seller_payable:")),
        paid_to_sellers: text(sumOf("seller_paid:")),
        platform_fees: text(of(ACCOUNTS.platform)),
        provider_fees: text(of(ACCOUNTS.fees)),
        refunds_in_flight: text(of(ACCOUNTS.clearing)),
        refunded: text(of(ACCOUNTS.refunds)),
      };
    });
  return { object: "balance" as const, balances, as_of: deps.now().toISOString() };
}
