import type { Client, Payment } from "@payments-backend/sdk";
import { endOfDay, startOfDay, useUrlFilters } from "../../components/url-filters.ts";
import type { PaymentStatus } from "./status.ts";

// The payments list's filters live in the address (shareable, kept on reload) and go to the
// list API as they are (docs/payments.md "Finding payments"): the server searches, indexed.

export interface Filters {
  status?: PaymentStatus;
  /** An id prefix (`pay_…`) or a piece of the shopper's email. */
  q?: string;
  price_id?: string;
  currency?: string;
  min?: string;
  max?: string;
  /** Local calendar days (`2026-11-26`), turned into instants in the viewer's zone. */
  from?: string;
  to?: string;
}

const KEYS = ["status", "q", "price_id", "currency", "min", "max", "from", "to"] as const;

export function useFilters() {
  const { filters, set } = useUrlFilters(KEYS);
  return { filters: filters as Filters, set: set as (changes: Partial<Filters>) => void };
}

/** What is wrong with the search box's text, in words, or null when the server can take it. */
export function searchProblem(q: string | undefined): string | null {
  if (!q) return null;
  if (/^pay_/i.test(q))
    return /^pay_[0-9a-z]{0,26}$/i.test(q) ? null : "A payment id is pay_ and letters or digits";
  return q.length >= 3 ? null : "Type at least 3 characters of the email";
}

/** The list API's query for these filters. */
export function listQuery(filters: Filters): Record<string, string | undefined> {
  const q = filters.q?.trim();
  const byId = q !== undefined && /^pay_/i.test(q);
  const amount = filters.min || filters.max;
  return {
    status: filters.status,
    price_id: filters.price_id,
    id_prefix: byId ? q.toLowerCase() : undefined,
    shopper_email: q && !byId ? q : undefined,
    currency: amount ? (filters.currency ?? "usd") : undefined,
    "amount[gte]": filters.min,
    "amount[lte]": filters.max,
    "created[gte]": filters.from ? startOfDay(filters.from) : undefined,
    "created[lte]": filters.to ? endOfDay(filters.to) : undefined,
  };
}

/** At most this many rows in one export: beyond it the reports API is the tool. */
export const EXPORT_LIMIT = 10_000;

const CSV_COLUMNS = ["id", "status", "amount", "currency", "shopper_email", "price", "created_at"] as const;

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** Every payment the filters find (up to EXPORT_LIMIT), as a CSV file's text. */
export async function exportCsv(client: Client, appId: string, filters: Filters): Promise<string> {
  const lines = [CSV_COLUMNS.join(",")];
  const query = { ...listQuery(filters), limit: 100 } as Parameters<Client["payments"]["list"]>[1];
  for await (const each of client.payments.list(appId, query)) {
    const payment = each as Payment;
    lines.push(
      [
        payment.id,
        payment.status,
        String(payment.final_amount),
        payment.price_item.currency,
        payment.shopper_email ?? "",
        payment.price.name,
        payment.created_at,
      ]
        .map(csvField)
        .join(","),
    );
    if (lines.length > EXPORT_LIMIT) break;
  }
  return `${lines.join("\r\n")}\r\n`;
}
