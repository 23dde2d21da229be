import { getTableColumns, getTableName, Placeholder, type SQL, sql, type Table } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type pg from "pg";
import type { Database, DatabaseHandle, Executor } from "./open.ts";
import {
  compileSql,
  compileTemplate,
  driverConversion,
  TextAndValues,
  textOf,
} from "./shims/drizzle-compile-shim.ts";
import { withRowMapper } from "./shims/drizzle-row-mapper-shim.ts";
import { named } from "./statement-names.ts";

/*
 * What every hand-written statement is built and run with (the statements themselves go in their
 * module's `sql.ts` as named functions, as pg-boss keeps its SQL in `plans.ts`): statements kept
 * prepared (`prepared`), one-row inserts built from a Drizzle table (`insertRow`), the guarded
 * write (`writeIf`: several writes in one statement, all made only while a condition holds),
 * statements given their values once built (`withValues`, with rows of placeholders from
 * `rowTemplate` that `fillRow` fills in), and the runners that send a statement
 * on either engine (`statementRunner`, `drizzleRunner`). Statements are Drizzle `sql`, so their
 * parameters number themselves and no text is ever patched. Nothing here knows what the rows
 * mean. They are compiled by a copy of Drizzle's compiler kept apart as a performance shim
 * (shims/drizzle-compile-shim.ts), pinned to the Drizzle version it was measured on.
 */

const dialect = new PgDialect();

const preparedCache = new WeakMap<Database, Map<string, unknown>>();

/**
 * A statement built once per database and reused: the SQL text is not rebuilt on every request,
 * and PostgreSQL plans it once per connection, and a select's rows are turned into objects by steps
 * decided once. For the queries every request runs (authentication, the most-read records).
 */
export function prepared<T>(db: Database, name: string, build: (db: Database) => T): T {
  let cache = preparedCache.get(db);
  if (!cache) {
    cache = new Map();
    preparedCache.set(db, cache);
  }
  let statement = cache.get(name) as T | undefined;
  if (!statement) {
    // Its rows mapped by a mapper decided once (a performance shim: shims/drizzle-row-mapper-shim.ts).
    statement = withRowMapper(build(db));
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
 * each parameter cast to its column's type (a select list does not take it from the column). A
 * value may be a placeholder (`rowTemplate`), for a template that `withValues` fills in.
 */
export function insertRow<T extends Table>(table: T, values: T["$inferInsert"], when?: SQL): SQL {
  const columns = columnsOf(table);
  const names: string[] = [];
  const texts: string[] = [`insert into ${textOf(table)} (`];
  const parameters: unknown[] = [];
  for (const key in values) {
    const value = (values as Record<string, unknown>)[key];
    if (value === undefined) continue;
    const column = columns.get(key);
    if (!column) throw new Error(`${getTableName(table)} has no column ${key}`);
    names.push(column.name);
    texts.push(when === undefined ? ", " : `${column.cast}, `);
    parameters.push(value instanceof Placeholder ? value : driverText(column, value));
  }
  if (names.length === 0) throw new Error(`A row of ${getTableName(table)} needs a value`);
  texts[0] += `${names.join(", ")}) ${when === undefined ? "values (" : "select "}`;
  const last = texts.length - 1;
  texts[last] = texts[last].slice(0, -2);
  if (when === undefined) {
    texts[last] += ")";
    return sql`${new TextAndValues(texts, parameters)}`;
  }
  texts[last] += " where ";
  return sql`${new TextAndValues(texts, parameters)}${when}`;
}

/** A column's value as `insertRow` sends it: converted as Drizzle converts it, then as text. */
function driverText(column: ColumnOf, value: unknown) {
  return asText(value === null || !column.toDriver ? value : column.toDriver(value));
}

/**
 * The keys of a row that `insertRow` writes (those with a value, null included): what a template's
 * row holds (`rowTemplate`) and what it is filled with (`fillRow`).
 */
export function rowKeys(row: object): string[] {
  return Object.keys(row).filter((key) => (row as Record<string, unknown>)[key] !== undefined);
}

/** A table's row in a template (`rowTemplate`): which keys it writes, and as which placeholders. */
export interface RowTemplate<T extends Table = Table> {
  readonly table: T;
  /** The row for `insertRow`: each value the placeholder `<prefix>.<key>`. */
  readonly placeholders: T["$inferInsert"];
  /** For each key written, its placeholder's name and its column (`fillRow`). */
  readonly slots: readonly { key: string; name: string; column: ColumnOf }[];
}

/**
 * A row of `table` with the values of `keys` left as placeholders named `<prefix>.<key>`: a row's
 * part of a template built once per shape (`insertRow(table, row.placeholders)`), which `fillRow`
 * gives each call's values. Made once per table, list of keys and prefix: a caller that asks on
 * every call (a create's webhook event, its jobs) passes the same list, a constant, and is answered
 * without the keys being read again.
 */
export function rowTemplate<T extends Table>(
  table: T,
  prefix: string,
  keys: readonly string[],
): RowTemplate<T> {
  let byKeys = rowTemplates.get(table);
  if (!byKeys) {
    byKeys = new WeakMap();
    rowTemplates.set(table, byKeys);
  }
  let byPrefix = byKeys.get(keys);
  if (!byPrefix) {
    byPrefix = new Map();
    byKeys.set(keys, byPrefix);
  }
  let template = byPrefix.get(prefix);
  if (!template) {
    template = makeRowTemplate(table, prefix, keys);
    byPrefix.set(prefix, template);
  }
  return template as RowTemplate<T>;
}
const rowTemplates = new WeakMap<Table, WeakMap<readonly string[], Map<string, RowTemplate>>>();

function makeRowTemplate<T extends Table>(table: T, prefix: string, keys: readonly string[]): RowTemplate<T> {
  const columns = columnsOf(table);
  const slots = keys.map((key) => {
    const column = columns.get(key);
    if (!column) throw new Error(`${getTableName(table)} has no column ${key}`);
    return { key, name: `${prefix}.${key}`, column };
  });
  const placeholders = Object.fromEntries(slots.map((slot) => [slot.key, sql.placeholder(slot.name)]));
  return { table, placeholders: placeholders as T["$inferInsert"], slots };
}

/**
 * Adds to `into` the values `insertRow` would send for `row`, under the names of `template`'s
 * placeholders. A row with a key more or less than the template's is a different statement: refused.
 */
export function fillRow<T extends Table>(
  template: RowTemplate<T>,
  row: T["$inferInsert"],
  into: Record<string, unknown>,
): void {
  const values = row as Record<string, unknown>;
  let written = 0;
  for (const key in values) if (values[key] !== undefined) written++;
  if (written !== template.slots.length) {
    throw new Error(`A row of ${getTableName(template.table)} differs from its template`);
  }
  for (const slot of template.slots) {
    const value = values[slot.key];
    if (value === undefined) throw new Error(`A row of ${getTableName(template.table)} lacks ${slot.key}`);
    into[slot.name] = driverText(slot.column, value);
  }
}

/** A column as the statements built here use it: its quoted name, its type's cast, its conversion. */
interface ColumnOf {
  name: string;
  cast: string;
  /** Drizzle's conversion to the driver's value, or undefined where it hands the value back as is. */
  toDriver: ((value: unknown) => unknown) | undefined;
}

/** A table's columns by key, each with its quoted name and the cast to its type, made once. */
const tableColumns = new WeakMap<Table, Map<string, ColumnOf>>();
function columnsOf(table: Table) {
  let columns = tableColumns.get(table);
  if (!columns) {
    columns = new Map();
    for (const [key, column] of Object.entries(getTableColumns(table))) {
      columns.set(key, {
        name: dialect.escapeName(column.name),
        cast: `::${column.getSQLType()}`,
        toDriver: driverConversion(column),
      });
    }
    tableColumns.set(table, columns);
  }
  return columns;
}

/**
 * A row of `table` as a statement built here answers it (column names, the driver's values), as
 * Drizzle's own `returning()` answers it: keyed by property, each value mapped by its column.
 */
export function rowOf<T extends Table>(table: T, raw: Record<string, unknown>): T["$inferSelect"] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T["$inferSelect"];
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

/**
 * A statement with placeholders compiled once: the text around them, their names in order, and the
 * whole text with them numbered from $1 (for a statement that is the template alone).
 */
interface Template {
  texts: string[];
  names: string[];
  numbered: string;
}
const templates = new WeakMap<SQL, Template>();

/**
 * `template`, a statement with Drizzle placeholders (`sql.placeholder`) and no values, given the
 * values of its placeholders, as a part of a bigger statement or a whole one. Its text is worked
 * out the first time only: for a large part that every request sends, where walking all of its
 * pieces each time would cost more than running it.
 */
export function withValues(template: SQL, values: Record<string, unknown>): SQL {
  let compiled = templates.get(template);
  if (!compiled) {
    const { texts, names } = compileTemplate(template);
    const numbered = texts.reduce((text, next, i) => `${text}$${i}${next}`);
    compiled = { texts, names, numbered };
    templates.set(template, compiled);
  }
  return sql`${new TextAndValues(
    compiled.texts,
    compiled.names.map((name) => values[name]),
    compiled.numbered,
  )}`;
}

/** A statement's text and its parameters' values, as text; Drizzle's compiler for what it alone knows. */
function compile(statement: SQL): { text: string; values: (string | null)[] } {
  const query = compileSql(statement);
  return { text: query.sql, values: query.params.map(asText) };
}

/** Sends statements built here: one Drizzle `sql`, its rows answered. */
export type Runner = (statement: SQL) => Promise<Record<string, unknown>[]>;

/**
 * One statement on PostgreSQL, outside any transaction, as a named prepared statement: parsed and
 * planned once per connection.
 */
async function runStatement(pool: pg.Pool, text: string, values: (string | null)[]) {
  const statement = named(text);
  return (await pool.query<Record<string, unknown>>({ name: statement.name, text: statement.text, values }))
    .rows;
}

/**
 * Runs statements that each stand alone, each one atomic by itself, as named prepared statements
 * on either engine (PGlite keeps every statement prepared: `StatementCachingPGlite`, in
 * shims/pglite-prepared-shim.ts). None is wrapped in a transaction, because on the embedded engine
 * a transaction holds PGlite's one connection for its whole length (the JavaScript between its
 * statements too) and the job worker waits on it (docs/benchmarks.md).
 */
export function statementRunner(handle: Pick<DatabaseHandle, "engine" | "pool" | "pglite">): Runner {
  return async (statement) => {
    const { text, values } = compile(statement);
    if (handle.engine === "postgres") return runStatement(handle.pool!, text, values);
    return (await handle.pglite!.query<Record<string, unknown>>(text, values)).rows;
  };
}

/**
 * A runner that sends statements through Drizzle's session (in a transaction when given one),
 * unnamed unless `named`. They are compiled here, as `statementRunner`'s are: `db.execute` would
 * compile them with Drizzle's own compiler, which was a sixth of the job worker's CPU in a
 * lifecycle run (docs/benchmarks.md, "The worker's statements compiled once").
 */
export function drizzleRunner(db: Executor, options: { named?: boolean } = {}): Runner {
  const send = textRunner(db, options);
  return (statement) => {
    const { sql: text, params } = compileSql(statement);
    return send(text, params);
  };
}

/**
 * `drizzleRunner` for a statement that is already text and values (a library's own, as pg-boss
 * builds them). With `named`, sent as a named prepared statement, parsed and planned once per
 * connection: for texts that repeat (a handful of shapes; `named` keeps at most a thousand).
 */
export function textRunner(db: Executor, options: { named?: boolean } = {}) {
  return async (text: string, values: unknown[]): Promise<Record<string, unknown>[]> => {
    const statement = options.named ? named(text) : { text, name: undefined };
    const prepared = db._.session.prepareQuery(
      { sql: statement.text, params: values },
      undefined,
      statement.name,
      false,
    );
    // Both engines answer `{ rows }`; the engine-neutral result type does not say so.
    const result = (await prepared.execute()) as unknown as { rows: Record<string, unknown>[] };
    return result.rows;
  };
}
