import { eq, gte, like, lte, type SQL, sql } from "drizzle-orm";
import { invalid } from "../../platform/http/errors.ts";
import { parseAmount } from "../../platform/money/amount.ts";
import { currencyOf } from "../../platform/money/currencies.ts";
import type { PaymentFilters } from "./schemas.ts";
import { payments } from "./tables.ts";

// The list's filters as conditions, each one an index serves within the app (drizzle migration
// "payment_search"): status and newest first, an id prefix on a pattern index, a shopper email's
// substring on a trigram index, an amount range in one charge currency, and a creation range on
// the list's own (app_id, created_at, id) index.

/** `%`, `_` and `\` typed by a person are text to find, not LIKE wildcards. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export function filterConditions(filters: PaymentFilters): SQL[] {
  const conditions: SQL[] = [];
  if (filters.status) conditions.push(eq(payments.status, filters.status));
  if (filters.price_id) conditions.push(eq(payments.priceId, filters.price_id));
  // Escaped: the `_` of `pay_` as a wildcard would leave the index only `pay` to narrow by (all ids).
  if (filters.id_prefix) conditions.push(like(payments.id, `${escapeLike(filters.id_prefix)}%`));
  if (filters.shopper_email) {
    const needle = `%${escapeLike(filters.shopper_email.toLowerCase())}%`;
    conditions.push(sql`lower(${payments.shopperEmail}) like ${needle}`);
  }
  const least = filters["amount[gte]"];
  const most = filters["amount[lte]"];
  if (least !== undefined || most !== undefined) {
    // An amount means nothing without its currency: 12.50 USD and 12.50 JPY are not one bound.
    if (!filters.currency) throw invalid("/query/currency", "is required with amount[gte] or amount[lte]");
    const currency = currencyOf(filters.currency, "/query/currency");
    conditions.push(eq(payments.chargeCurrency, currency.code));
    if (least !== undefined) {
      conditions.push(gte(payments.chargeAmount, parseAmount(least, currency, "/query/amount[gte]")));
    }
    if (most !== undefined) {
      conditions.push(lte(payments.chargeAmount, parseAmount(most, currency, "/query/amount[lte]")));
    }
  } else if (filters.currency) {
    conditions.push(eq(payments.chargeCurrency, currencyOf(filters.currency, "/query/currency").code));
  }
  const from = filters["created[gte]"];
  const to = filters["created[lte]"];
  if (from) conditions.push(gte(payments.createdAt, instant(from, "/query/created[gte]")));
  if (to) conditions.push(lte(payments.createdAt, instant(to, "/query/created[lte]")));
  return conditions;
}

function instant(text: string, path: string): Date {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw invalid(path, "must be a date-time such as 2026-11-26T00:00:00Z");
  return date;
}
