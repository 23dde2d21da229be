// Seeds a large list in one set-based statement: copies of one real payment (made through the API),
// each with its own id, token hash and an older created_at. Used by bench/lists.ts and the list-plan
// test; the API would take hours to make a million payments.

/** Anything with node-postgres' `query(text, values)`: a Client or a Pool. */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: any[]; rowCount?: number | null }>;
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
): Promise<void> {
  const { rows } = await db.query(
    "select column_name from information_schema.columns where table_schema = current_schema() and table_name = 'payments' order by ordinal_position",
  );
  const columns: string[] = rows.map((r) => r.column_name);
  const changed: Record<string, string> = {
    id: "t.id || '_' || g",
    payment_token_hash: "t.payment_token_hash || '_' || g",
    // Sealed under the template's id, so it would not open for a copy: copies keep no token.
    payment_token_sealed: "null",
    created_at: "t.created_at - g * interval '1 second'",
    updated_at: "t.updated_at - g * interval '1 second'",
  };
  const list = columns.map((c) => `"${c}"`).join(", ");
  const values = columns.map((c) => changed[c] ?? `t."${c}"`).join(", ");
  await db.query(
    `insert into payments (${list}) select ${values} from payments t cross join generate_series($3::int, $3::int + $2::int - 1) g where t.id = $1`,
    [templateId, count, from],
  );
  await db.query("analyze payments");
}
