// Seeds a large list in one set-based statement: copies of one real payment (made through the API),
// each with its own id, token hash and an older created_at. Used by bench/lists.ts and the list-plan
// tests; the API would take hours to make a million payments.

/** Anything with node-postgres' `query(text, values)`: a Client or a Pool. */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: any[]; rowCount?: number | null }>;
}

/**
 * How copies differ from the template beyond id and time, so that each list filter matches a part
 * of the list as a real app's would (identical copies would make every filter match all or none):
 * - status: 0.1% `hold` (one in a thousand: a rare status), then 5% `refunded`, 5% `cancelled`,
 *   5% `failed`, the rest `paid`;
 * - shopper_email: `shopper<n>@example.com`, one address per copy;
 * - charge_amount: the template's plus `n mod 1000` cents (a thousand amounts, 0.1% each);
 * - price_id: one copy in a hundred is of `rarePriceId` (another price of the same app);
 * - id: `pay_` and 26 hex digits of a hash, so that an id prefix narrows the list as a real one
 *   does (`<template id>_<n>` would put every copy under the template's id).
 */
export interface Spread {
  rarePriceId: string;
}

/** The changed columns' values for copy number `g` of template row `t`. */
function copyOf(spread: Spread | undefined): Record<string, string> {
  const base: Record<string, string> = {
    id: "t.id || '_' || g",
    payment_token_hash: "t.payment_token_hash || '_' || g",
    // Sealed under the template's id, so it would not open for a copy: copies keep no token.
    payment_token_sealed: "null",
    created_at: "t.created_at - g * interval '1 second'",
    updated_at: "t.updated_at - g * interval '1 second'",
  };
  if (!spread) return base;
  return {
    ...base,
    id: "'pay_' || substr(md5(t.id || '_' || g), 1, 26)",
    status: `case when g % 1000 = 999 then 'hold' when g % 20 = 0 then 'refunded'
      when g % 20 = 1 then 'cancelled' when g % 20 = 2 then 'failed' else 'paid' end`,
    shopper_email: "'shopper' || g || '@example.com'",
    charge_amount: "t.charge_amount + g % 1000",
    price_id: "case when g % 100 = 50 then $4 else t.price_id end",
  };
}

/**
 * Inserts `count` copies of payment `templateId`, numbered from `from`, each one second older than
 * the one before: the template, then copy 1, copy 2, ... in newest-first order.
 */
export async function clonePayments(
  db: Queryable,
  templateId: string,
  count: number,
  from = 1,
  spread?: Spread,
): Promise<void> {
  const { rows } = await db.query(
    "select column_name from information_schema.columns where table_schema = current_schema() and table_name = 'payments' order by ordinal_position",
  );
  const columns: string[] = rows.map((r) => r.column_name);
  const changed = copyOf(spread);
  const list = columns.map((c) => `"${c}"`).join(", ");
  const values = columns.map((c) => changed[c] ?? `t."${c}"`).join(", ");
  await db.query(
    `insert into payments (${list}) select ${values} from payments t cross join generate_series($3::int, $3::int + $2::int - 1) g where t.id = $1`,
    spread ? [templateId, count, from, spread.rarePriceId] : [templateId, count, from],
  );
  // A table that has been there a while has been vacuumed: its visibility map lets counts read the
  // index alone. Measured right after a bulk insert, every count would visit the heap instead.
  await db.query("vacuum analyze payments");
}
