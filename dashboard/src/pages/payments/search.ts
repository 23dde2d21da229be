import { ApiError, type Client, type Payment } from "@payments-backend/sdk";
import type { PaymentStatus } from "./status.ts";

/** How many of the newest payments an email search reads: the list API has no email filter. */
export const EMAIL_SEARCH_DEPTH = 1000;

export interface SearchAnswer {
  payments: Payment[];
  /** How many payments were read; equal to EMAIL_SEARCH_DEPTH when older ones were not. */
  searched: number;
  exhaustive: boolean;
}

export type SearchKind = "id" | "email" | "invalid";

export function searchKind(term: string): SearchKind {
  if (/^pay_[0-9a-z]+$/i.test(term)) return "id";
  if (/^[^\s@]+@[^\s@]+$/.test(term)) return "email";
  return "invalid";
}

/**
 * A payment by its id (one read), or the payments of a shopper's email among the newest
 * EMAIL_SEARCH_DEPTH (paged through by cursor, with the status filter applied by the API).
 */
export async function searchPayments(
  client: Client,
  appId: string,
  term: string,
  status: PaymentStatus | undefined,
): Promise<SearchAnswer> {
  if (searchKind(term) === "id") {
    try {
      const payment = await client.payments.get(appId, term);
      const matches = status === undefined || payment.status === status;
      return { payments: matches ? [payment] : [], searched: 1, exhaustive: true };
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        return { payments: [], searched: 0, exhaustive: true };
      }
      throw error;
    }
  }
  const email = term.toLowerCase();
  const found: Payment[] = [];
  let searched = 0;
  for await (const payment of client.payments.list(appId, { status, limit: 100 })) {
    searched += 1;
    if (payment.shopper_email?.toLowerCase() === email) found.push(payment as Payment);
    if (searched >= EMAIL_SEARCH_DEPTH) return { payments: found, searched, exhaustive: false };
  }
  return { payments: found, searched, exhaustive: true };
}
