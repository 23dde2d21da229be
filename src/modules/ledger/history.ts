import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { formatAmountText } from "../../platform/money/amount.ts";
import { currencyOf } from "../../platform/money/currencies.ts";
import { requireAppRole } from "../apps/access.ts";
import { ACCOUNTS } from "./entries.ts";
import { dailyMovements } from "./sql.ts";

// Balances over time, for a chart: each UTC day's closing balance per currency, summed by the
// database (one GROUP BY over the app's entries), so a console draws a month without reading a
// month of entries.

/** How many days one answer may cover: a year and a day, enough for any yearly chart. */
export const MAX_HISTORY_DAYS = 366;

const DAY_MS = 24 * 3600 * 1000;

/** The balance a ledger account counts towards, or none (shoppers, fees, shares the app does not hold). */
type Figure = "available" | "pending" | "owed_to_sellers";

function figureOf(account: string): Figure | undefined {
  if (account === ACCOUNTS.app) return "available";
  if (account === ACCOUNTS.held) return "pending";
  if (account.startsWith("seller_payable:")) return "owed_to_sellers";
  return undefined;
}

const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Each of the last `days` UTC days (today last, up to now): per currency, `available`, `pending`
 * and `owed_to_sellers` at the day's end, as `GET /balances` answers them now. Entries before the
 * first day are its opening balance.
 */
export async function getBalanceHistory(deps: Deps, actor: Principal, appId: string, days: number) {
  await requireAppRole(deps.db, actor, appId, "view");
  const now = deps.now();
  const today = Date.parse(`${utcDay(now)}T00:00:00.000Z`);
  const start = new Date(today - (days - 1) * DAY_MS);
  const rows = await dailyMovements(deps.db, appId, start);

  // currency -> day (null: before the window) -> figure -> minor units moved that day
  const moves = new Map<string, Map<string | null, Record<Figure, bigint>>>();
  for (const row of rows) {
    const figure = figureOf(row.account);
    if (!figure) continue;
    if (!moves.has(row.currency)) moves.set(row.currency, new Map());
    const byDay = moves.get(row.currency)!;
    const sums = byDay.get(row.day) ?? { available: 0n, pending: 0n, owed_to_sellers: 0n };
    sums[figure] += BigInt(row.sum);
    byDay.set(row.day, sums);
  }
  const dates = Array.from({ length: days }, (_, i) => utcDay(new Date(start.getTime() + i * DAY_MS)));
  const currencies = [...moves]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, byDay]) => {
      const currency = currencyOf(code, "currency");
      const running = { ...(byDay.get(null) ?? { available: 0n, pending: 0n, owed_to_sellers: 0n }) };
      const text = (minor: bigint) => formatAmountText(minor, currency);
      return {
        currency: code,
        days: dates.map((date) => {
          const moved = byDay.get(date);
          if (moved) for (const figure of Object.keys(running) as Figure[]) running[figure] += moved[figure];
          return {
            date,
            available: text(running.available),
            pending: text(running.pending),
            owed_to_sellers: text(running.owed_to_sellers),
          };
        }),
      };
    });
  return {
    object: "balance_history" as const,
    from: start.toISOString(),
    as_of: now.toISOString(),
    currencies,
  };
}
