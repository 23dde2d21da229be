import { createHash } from "node:crypto";
import { getTableColumns, getTableName, type SQL, sql, type Table } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type pg from "pg";
import type { Database, DatabaseHandle, Executor } from "./open.ts";

/*
 * Every hand-written statement is built and run here, as pg-boss keeps its SQL in `plans.ts`:
 * statements kept prepared (`prepared`), one-row inserts built from a Drizzle table (`insertRow`),
 * the guarded write (`writeIf`: several writes in one statement, all made only while a condition
 * holds), and the runners that send a statement on either engine (`statementRunner`,
 * `drizzleRunner`). Statements are Drizzle `sql`, so their parameters number themselves and no
 * text is ever patched. Nothing here knows what the rows mean.
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
 * A parameter's value as text (or null), which PostgreSQL casts to the column's type the same way
 * on both engines: bigint as its digits, dates as ISO strings, JSON already serialised. Drivers
 * would otherwise each convert a Date or an array in their own way.
 */
function asText(value: unknown): string | null {
  if (value == null) return null;
  if (typeof value === "string") return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * `insert into <table> (<columns>) values (<parameters>)` for one row, each value converted as
 * Drizzle converts it for that column (a part of a hand-written statement: see `writeIf`). With
 * `when`, the row is written only if that condition holds: `insert … select <values> where …`,
 * each parameter cast to its column's type (a select list does not take it from the column).
 */
export function insertRow<T extends Table>(table: T, values: T["$inferInsert"], when?: SQL): SQL {
  const columns = getTableColumns(table) as Record<
    string,
    { name: string; mapToDriverValue(v: unknown): unknown; getSQLType(): string }
  >;
  const names: SQL[] = [];
  const parameters: SQL[] = [];
  for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
    if (value === undefined) continue;
    const column = columns[key];
    if (!column) throw new Error(`${getTableName(table)} has no column ${key}`);
    names.push(sql`${sql.identifier(column.name)}`);
    const parameter = sql`${sql.param(asText(value === null ? null : column.mapToDriverValue(value)))}`;
    parameters.push(when === undefined ? parameter : sql`${parameter}::${sql.raw(column.getSQLType())}`);
  }
  const into = sql`insert into ${table} (${sql.join(names, sql`, `)})`;
  return when === undefined
    ? sql`${into} values (${sql.join(parameters, sql`, `)})`
    : sql`${into} select ${sql.join(parameters, sql`, `)} where ${when}`;
}

/** The parts of a guarded write (`writeIf`). */
export interface GuardedWrite {
  /**
   * `WITH` parts run first, by name, which `condition` and `answer` may read: lookups, or a write
   * of their own (a claim `insert … on conflict do nothing returning 1`).
   */
  first?: Record<string, SQL>;
  /** Whether the writes are made: evaluated once, as the part `guard` (its column `holds`). */
  condition: SQL;
  /** The writes, each given the condition to put in its own `where` (`insertRow`'s `when`). */
  writes: (when: SQL) => SQL[];
  /** The statement's one answer row: a select list, which may read `guard.holds` and `first`'s parts. */
  answer: SQL;
}

/**
 * One statement that makes every write of `writes` only while `condition` holds: `with <first>,
 * guard as (select <condition> as holds), w0 as (<write>), … select <answer> from guard`. A single
 * statement is atomic, so the writes commit together or not at all, in one round trip and without
 * a transaction; the condition is decided once, so the writes cannot disagree on it.
 */
export function writeIf(write: GuardedWrite): SQL {
  const parts = Object.entries(write.first ?? {}).map(
    ([name, part]) => sql`${sql.identifier(name)} as (${part})`,
  );
  parts.push(sql`guard as (select ${write.condition} as holds)`);
  const writes = write.writes(sql`(select holds from guard)`);
  for (const [i, part] of writes.entries()) parts.push(sql`${sql.identifier(`w${i}`)} as (${part})`);
  return sql`with ${sql.join(parts, sql`,\n`)}\nselect ${write.answer} from guard`;
}

/** Sends statements built here: one Drizzle `sql`, its rows answered. */
export type Runner = (statement: SQL) => Promise<Record<string, unknown>[]>;

const dialect = new PgDialect();
const statementNames = new Map<string, string>();

/**
 * One statement on PostgreSQL, outside any transaction, as a named prepared statement: parsed and
 * planned once per connection.
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

/**
 * Runs statements that each stand alone, each one atomic by itself, as named prepared statements
 * on either engine (PGlite keeps every statement prepared: `StatementCachingPGlite`). None is
 * wrapped in a transaction, because on the embedded engine a transaction holds PGlite's one
 * connection for its whole length (the JavaScript between its statements too) and the job worker
 * waits on it (docs/benchmarks.md).
 */
export function statementRunner(handle: Pick<DatabaseHandle, "engine" | "pool" | "pglite">): Runner {
  return async (statement) => {
    const query = dialect.sqlToQuery(statement);
    const values = query.params.map(asText);
    if (handle.engine === "postgres") return runStatement(handle.pool!, query.sql, values);
    return (await handle.pglite!.query<Record<string, unknown>>(query.sql, values)).rows;
  };
}

/** A runner that sends statements through Drizzle (in a transaction when given one), unnamed. */
export function drizzleRunner(db: Executor): Runner {
  return async (statement) => {
    // Both engines answer `{ rows }`; the engine-neutral result type does not say so.
    const result = (await db.execute(statement)) as unknown as { rows: Record<string, unknown>[] };
    return result.rows;
  };
}
