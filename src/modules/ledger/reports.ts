import { Readable } from "node:stream";
import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { invalid } from "../../platform/http/errors.ts";
import { formatAmountText } from "../../platform/money/amount.ts";
import { currencyOf } from "../../platform/money/currencies.ts";
import { requireAppRole } from "../apps/access.ts";
import { entriesAfter, sellerMovements, sellersOwed } from "./sql.ts";

// Reports over a period of the books. Every date is UTC: `from` and `to` are read as instants
// (an ISO 8601 date-time; a bare date is midnight UTC) and answered with a `Z`.

export interface Period {
  from?: string;
  to?: string;
}

function periodOf(query: Period) {
  const read = (value: string | undefined, field: string) => {
    if (value === undefined) return undefined;
    const date = new Date(value);
    if (Number.isNaN(date.getTime())) throw invalid(`/query/${field}`, "must be a date or date-time (UTC)");
    return date;
  };
  const from = read(query.from, "from");
  const to = read(query.to, "to");
  if (from && to && from > to) throw invalid("/query/to", "must not be before from");
  return { from, to };
}

export const CSV_COLUMNS = [
  "id",
  "transaction_id",
  "created_at_utc",
  "type",
  "account",
  "currency",
  "amount",
  "payment_id",
  "reference",
] as const;

/** One RFC 4180 field: quoted when it holds a comma, a quote or a line break (quotes doubled). */
export function csvField(value: string | null): string {
  if (value === null) return "";
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

const csvLine = (fields: (string | null)[]) => `${fields.map(csvField).join(",")}\r\n`;

/** Rows read per query: memory stays the same whatever the period holds. */
const CSV_PAGE = 500;

/**
 * The period's entries as CSV, oldest first, read a page at a time by keyset (`created_at`, `id`)
 * and written as they are read: a million rows cost no more memory than five hundred. The stream
 * reads the next page only when the client has taken the last one (back-pressure).
 */
export async function balanceTransactionsCsv(deps: Deps, actor: Principal, appId: string, query: Period) {
  await requireAppRole(deps.db, actor, appId, "view");
  const period = periodOf(query);
  async function* lines() {
    yield csvLine([...CSV_COLUMNS]);
    let after: { createdAt: string; id: string } | undefined;
    for (;;) {
      const rows = await entriesAfter(deps.db, appId, period, after, CSV_PAGE);
      let chunk = "";
      for (const r of rows) {
        const amount = formatAmountText(r.amount, currencyOf(r.currency, "currency"));
        chunk += csvLine([
          r.id,
          r.transactionId,
          r.createdAt,
          r.type,
          r.account,
          r.currency,
          amount,
          r.paymentId,
          r.reference,
        ]);
      }
      if (chunk) yield chunk;
      if (rows.length < CSV_PAGE) return;
      const last = rows[rows.length - 1];
      after = { createdAt: last.createdAt, id: last.id };
    }
  }
  return Readable.from(lines(), { objectMode: false });
}

/**
 * What each seller earned, gave back, was sent and owes over a period, per currency: their
 * payable and paid accounts' movements by event, and the payable's balance at the period's end.
 */
export async function sellerPayouts(deps: Deps, actor: Principal, appId: string, query: Period) {
  await requireAppRole(deps.db, actor, appId, "view");
  const period = periodOf(query);
  const [moves, owed] = await Promise.all([
    sellerMovements(deps.db, appId, period),
    sellersOwed(deps.db, appId, period.to),
  ]);
  type Row = { earned: bigint; refunded: bigint; transferred: bigint; reversed: bigint; owed: bigint };
  const sellers = new Map<string, Row & { kycId: string; currency: string }>();
  const rowOf = (account: string, currency: string) => {
    const kycId = account.slice(account.indexOf(":") + 1);
    const key = `${kycId} ${currency}`;
    if (!sellers.has(key)) {
      sellers.set(key, {
        kycId,
        currency,
        earned: 0n,
        refunded: 0n,
        transferred: 0n,
        reversed: 0n,
        owed: 0n,
      });
    }
    return sellers.get(key)!;
  };
  for (const m of moves) {
    const row = rowOf(m.account, m.currency);
    const total = BigInt(m.total);
    const payable = m.account.startsWith("seller_payable:");
    // A payout pointed at another seller after the capture moves what was earned with it.
    if (payable && (m.type === "capture" || m.type === "payout_moved")) row.earned += total;
    else if (payable && (m.type === "refund" || m.type === "bank_return")) row.refunded -= total;
    else if (!payable && m.type === "transfer") row.transferred += total;
    else if (!payable && m.type === "transfer_reversal") row.reversed -= total;
  }
  for (const o of owed) rowOf(o.account, o.currency).owed = BigInt(o.total);
  const text = (minor: bigint, code: string) => formatAmountText(minor, currencyOf(code, "currency"));
  return {
    object: "seller_payouts" as const,
    from: period.from?.toISOString() ?? null,
    to: period.to?.toISOString() ?? null,
    sellers: [...sellers.values()]
      .filter((s) => s.kycId !== "app")
      .sort((a, b) => a.kycId.localeCompare(b.kycId) || a.currency.localeCompare(b.currency))
      .map((s) => ({
        kyc_id: s.kycId,
        currency: s.currency,
        earned: text(s.earned, s.currency),
        refunded: text(s.refunded, s.currency),
        transferred: text(s.transferred, s.currency),
        reversed: text(s.reversed, s.currency),
        owed_at_end: text(s.owed, s.currency),
      })),
  };
}
