import { createHash } from "node:crypto";
import { getTableColumns, getTableName, type SQL, sql, type Table } from "drizzle-orm";
import type pg from "pg";
import type { Database, DatabaseHandle, Executor } from "./open.ts";

/*
 * Hand-written SQL and how it runs: statements kept prepared (`prepared`), parameters (`Params`),
 * single-row inserts built from a Drizzle table (`insertInto`), and the runners that send a
 * statement on either engine (`statementRunner`, `drizzleRunner`).
 */

const preparedCache = new WeakMap<Database, Map<string, unknown>>();

/**
 * A statement built once per database and reused: the SQL text is not rebuilt on every request,
 * and PostgreSQL plans it once per connection. For the queries every request runs (authentication,
 * the most-read records).
 */
export function prepared<T>(db: Database, name: string, build: (db: Database) => T): T {
  let cache = preparedCache.get(db);
  if (!cache) {
    cache = new Map();
    preparedCache.set(db, cache);
  }
  let statement = cache.get(name) as T | undefined;
  if (!statement) {
    statement = build(db);
    cache.set(name, statement);
  }
  return statement;
}

/**
 * Parameters of a hand-written statement: `add` keeps a value and answers its placeholder. Values
 * are passed as text (or null) and PostgreSQL casts them to the column's type, the same on both
 * engines: bigint as its digits, dates as ISO strings, JSON already serialised.
 */
export class Params {
  readonly values: (string | null)[] = [];
  add(value: unknown): string {
    this.values.push(
      value == null
        ? null
        : typeof value === "string"
          ? value
          : value instanceof Date
            ? value.toISOString()
            : typeof value === "object"
              ? JSON.stringify(value)
              : String(value),
    );
    return `$${this.values.length}`;
  }
}

/**
 * `insert into <table> (<columns>) values (<placeholders>)` for one row, each value converted as
 * Drizzle converts it for that column (a part of a hand-written statement; see `statementRunner`).
 * With `when`, the row is written only if that condition holds: `insert … select <values> where …`,
 * each placeholder cast to its column's type (a select list does not take it from the column).
 */
export function insertInto<T extends Table>(
  table: T,
  values: T["$inferInsert"],
  params: Params,
  when?: string,
): string {
  const columns = getTableColumns(table) as Record<
    string,
    { name: string; mapToDriverValue(v: unknown): unknown; getSQLType(): string }
  >;
  const names: string[] = [];
  const placeholders: string[] = [];
  for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
    if (value === undefined) continue;
    const column = columns[key];
    if (!column) throw new Error(`${getTableName(table)} has no column ${key}`);
    names.push(`"${column.name}"`);
    const placeholder = params.add(value === null ? null : column.mapToDriverValue(value));
    placeholders.push(when === undefined ? placeholder : `${placeholder}::${column.getSQLType()}`);
  }
  const into = `insert into "${getTableName(table)}" (${names.join(", ")})`;
  return when === undefined
    ? `${into} values (${placeholders.join(", ")})`
    : `${into} select ${placeholders.join(", ")} where ${when}`;
}

const statementNames = new Map<string, string>();

/**
 * One statement on PostgreSQL, outside any transaction, as a named prepared statement: parsed and
 * planned once per connection. A single statement is atomic, so several inserts written as
 * data-modifying `WITH` parts commit together or not at all, in one round trip.
 */
async function runStatement(pool: pg.Pool, text: string, values: (string | null)[]) {
  let name = statementNames.get(text);
  if (!name) {
    name = `s_${createHash("sha256").update(text).digest("base64url").slice(0, 22)}`;
    // The texts are a handful of shapes; the bound only guards against a caller that varies them.
    if (statementNames.size < 1000) statementNames.set(text, name);
  }
  return (await pool.query<Record<string, unknown>>({ name, text, values })).rows;
}

/** Runs one hand-written statement (positional parameters) and answers its rows. */
export type Runner = (text: string, values: (string | null)[]) => Promise<Record<string, unknown>[]>;

/** A hand-written statement as Drizzle SQL, for `drizzleRunner`. */
function drizzleSql(text: string, values: (string | null)[]): SQL {
  const chunks: SQL[] = [];
  let last = 0;
  for (const match of text.matchAll(/\$(\d+)/g)) {
    chunks.push(sql.raw(text.slice(last, match.index)), sql`${values[Number(match[1]) - 1]}`);
    last = match.index + match[0].length;
  }
  chunks.push(sql.raw(text.slice(last)));
  return sql.join(chunks);
}

/**
 * Runs hand-written statements that each stand alone, each one atomic by itself, as named prepared
 * statements on either engine (PGlite keeps every statement prepared: `StatementCachingPGlite`).
 * None is wrapped in a transaction, because on the embedded engine a transaction holds PGlite's one
 * connection for its whole length (the JavaScript between its statements too) and the job worker
 * waits on it (docs/benchmarks.md).
 */
export function statementRunner(handle: Pick<DatabaseHandle, "engine" | "pool" | "pglite">): Runner {
  if (handle.engine === "postgres") return (text, values) => runStatement(handle.pool!, text, values);
  const pglite = handle.pglite!;
  return async (text, values) => (await pglite.query<Record<string, unknown>>(text, values)).rows;
}

/** A runner that sends hand-written statements through Drizzle, as unnamed statements. */
export function drizzleRunner(db: Executor): Runner {
  return async (text, values) => {
    // Both engines answer `{ rows }`; the engine-neutral result type does not say so.
    const result = (await db.execute(drizzleSql(text, values))) as unknown as {
      rows: Record<string, unknown>[];
    };
    return result.rows;
  };
}
