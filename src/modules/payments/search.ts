import { eq, gte, like, lte, type Placeholder, type SQL, sql } from "drizzle-orm";
import { invalid } from "../../platform/http/errors.ts";
import type { KeysEach } from "../../platform/http/prepared-list.ts";
import { parseAmount } from "../../platform/money/amount.ts";
import { currencyOf } from "../../platform/money/currencies.ts";
import { indexedPart, rareInSample, type TrigramShares } from "./email-search.ts";
import type { PaymentFilters } from "./schemas.ts";
import { payments } from "./tables.ts";

// The list's filters as conditions, each one an index serves within the app (drizzle migration
// "payment_search"): status and newest first, an id prefix on a pattern index, a shopper email's
// substring on a trigram index, an amount range in one charge currency, and a creation range on
// the list's own (app_id, created_at, id) index.

/**
 * An amount range of at most this many amounts (an exact amount, or one within a few cents) is
 * read amount by amount, each amount's payments in list order (`keysEach` in `PreparedList`); a
 * wider one picks its keys from the whole range, or the planner reads the list newest first.
 */
const AMOUNTS_READ_ONE_BY_ONE = 10;

/** `%`, `_` and `\` typed by a person are text to find, not LIKE wildcards. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The filters given, as conditions on placeholders with their values apart (the list's statements
 * are built once per `shape`, the filters present: `pageOfPrepared`). Each value is text as
 * PostgreSQL reads it for the column compared: digits for an amount, an ISO time for a date.
 */
export function filterConditions(
  filters: PaymentFilters,
  /** Which trigrams addresses share: the email filter gives the index its rare part (`indexedPart`). */
  emailShares?: TrigramShares,
): {
  shape: string;
  conditions: SQL[];
  values: Record<string, unknown>;
  /** An amount range: its index finds payments by amount, out of list order (`PreparedList`). */
  keysFirst: boolean;
  /** A narrow amount range, read amount by amount (`PreparedList`). */
  keysEach?: KeysEach;
  /** A part of an email: a search that usually finds a few, whose page is often its own count. */
  countAfterPage: boolean;
  /** A part of an email no sampled address holds: its matches found first (`PreparedList`). */
  matchesFirst: boolean;
} {
  const conditions: SQL[] = [];
  const values: Record<string, unknown> = {};
  const names: string[] = [];
  const add = (name: string, value: unknown, condition: (value: Placeholder) => SQL) => {
    names.push(name);
    values[name] = value;
    conditions.push(condition(sql.placeholder(name)));
  };
  if (filters.status) add("status", filters.status, (p) => eq(payments.status, p));
  if (filters.price_id) add("price_id", filters.price_id, (p) => eq(payments.priceId, p));
  // Escaped: the `_` of `pay_` as a wildcard would leave the index only `pay` to narrow by (all ids).
  if (filters.id_prefix) add("id_prefix", `${escapeLike(filters.id_prefix)}%`, (p) => like(payments.id, p));
  const text = filters.shopper_email?.toLowerCase();
  if (text) {
    const part = indexedPart(text, emailShares);
    add("shopper_email_part", `%${escapeLike(part)}%`, (p) => sql`lower(${payments.shopperEmail}) like ${p}`);
    // The whole text checked on the rows the part found, on the column itself: no index serves it
    // (the trigram index is on `lower(...)`), and the planner estimates it from the column's own
    // statistics, so a short part's larger estimate does not send it reading the whole list newest
    // first for a page it finds only at the end (a `strpos` estimated at a third did, at a million).
    if (part !== text)
      add("shopper_email", `%${escapeLike(text)}%`, (p) => sql`${payments.shopperEmail} ilike ${p}`);
  }
  const least = filters["amount[gte]"];
  const most = filters["amount[lte]"];
  let narrow = false;
  if (least !== undefined || most !== undefined) {
    // An amount means nothing without its currency: 12.50 USD and 12.50 JPY are not one bound.
    if (!filters.currency) throw invalid("/query/currency", "is required with amount[gte] or amount[lte]");
    const currency = currencyOf(filters.currency, "/query/currency");
    add("currency", currency.code, (p) => eq(payments.chargeCurrency, p));
    const from = least === undefined ? undefined : parseAmount(least, currency, "/query/amount[gte]");
    const to = most === undefined ? undefined : parseAmount(most, currency, "/query/amount[lte]");
    if (from !== undefined) add("amount_gte", String(from), (p) => gte(payments.chargeAmount, p));
    if (to !== undefined) add("amount_lte", String(to), (p) => lte(payments.chargeAmount, p));
    // A reversed range finds nothing either way: it takes the plain path.
    narrow =
      from !== undefined && to !== undefined && to >= from && to - from < BigInt(AMOUNTS_READ_ONE_BY_ONE);
  } else if (filters.currency) {
    add("currency", currencyOf(filters.currency, "/query/currency").code, (p) =>
      eq(payments.chargeCurrency, p),
    );
  }
  const from = filters["created[gte]"];
  const to = filters["created[lte]"];
  if (from) add("created_gte", instant(from, "/query/created[gte]"), (p) => gte(payments.createdAt, p));
  if (to) add("created_lte", instant(to, "/query/created[lte]"), (p) => lte(payments.createdAt, p));
  const keysFirst = least !== undefined || most !== undefined;
  return {
    shape: names.join(","),
    conditions,
    values,
    keysFirst,
    keysEach: narrow
      ? { column: payments.chargeAmount, from: "amount_gte", to: "amount_lte", most: AMOUNTS_READ_ONE_BY_ONE }
      : undefined,
    countAfterPage: !!filters.shopper_email,
    matchesFirst: !!text && rareInSample(text, emailShares),
  };
}

/** `text` as an ISO time, or a 400 naming `path`. */
function instant(text: string, path: string): string {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw invalid(path, "must be a date-time such as 2026-11-26T00:00:00Z");
  return date.toISOString();
}
