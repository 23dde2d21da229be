import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import {
  type ExtractTablesWithRelations,
  getTableColumns,
  getTableName,
  type SQL,
  sql,
  type Table,
} from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { StatementCachingPGlite } from "./pglite-statements.ts";

/**
 * Queries are typed by the tables they name, so the database needs no schema of its own (no
 * relational `db.query.*` is used): the platform stays free of every module's tables. drizzle-kit
 * reads the tables from `src/schema.ts`.
 */
type NoSchema = Record<string, never>;
export type Database = PgDatabase<PgQueryResultHKT, NoSchema>;
export type Tx = PgTransaction<PgQueryResultHKT, NoSchema, ExtractTablesWithRelations<NoSchema>>;
/** Anything queries can run on: the database, or the transaction a caller is inside. */
export type Executor = Database | Tx;

export type Engine = "pglite" | "postgres";

export interface DatabaseHandle {
  db: Database;
  engine: Engine;
  /** Set on the embedded engine; pg-boss shares this one connection. */
  pglite?: PGlite;
  /** Set on PostgreSQL. */
  pool?: pg.Pool;
  connectionString?: string;
  close(): Promise<void>;
}

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../drizzle");

// Any fixed number works; it only has to be the same for every process migrating this database.
const MIGRATION_LOCK_KEY = 7_314_802_211;

// node-postgres parses int8 into strings by default; money columns are bigint and must stay exact.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => BigInt(value));

export interface OpenOptions {
  /** PostgreSQL connection string; absent means the embedded engine. */
  databaseUrl?: string;
  /** Data directory for the embedded engine; absent means in memory (tests). */
  dataDir?: string;
  poolSize?: number;
  /** The embedded engine's buffer cache (PGLITE_SHARED_BUFFERS_MB); absent: DEFAULT_PGLITE_SHARED_BUFFERS_MB. */
  sharedBuffersMb?: number;
  onIdleError?: (error: Error) => void;
}

/**
 * PostgreSQL's own default is 128 MB, which the embedded engine keeps in the process's memory for
 * as long as it runs. Its pages are files the operating system caches anyway, so a smaller cache
 * costs little for a developer's data set and saves a third of an idle process's memory
 * (docs/benchmarks.md, "Idle cost").
 */
const DEFAULT_PGLITE_SHARED_BUFFERS_MB = 32;

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 20 });
    // An idle connection the server drops (restart, failover) must not crash the process: the pool
    // replaces it on the next checkout.
    pool.on("error", (error) => options.onIdleError?.(error));
    const db = drizzlePg(pool) as unknown as Database;
    return {
      db,
      engine: "postgres",
      pool,
      connectionString: options.databaseUrl,
      close: () => pool.end(),
    };
  }
  let dir: string | undefined;
  if (options.dataDir) {
    dir = path.join(options.dataDir, "pgdata");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }
  // Every statement is kept prepared after its first run: PGlite otherwise parses and plans it on
  // each run, which in WebAssembly is most of a short statement's cost.
  const sharedBuffers = options.sharedBuffersMb ?? DEFAULT_PGLITE_SHARED_BUFFERS_MB;
  const pglite = new StatementCachingPGlite(dir, {
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffers}MB`],
  });
  await pglite.waitReady;
  const db = drizzlePglite(pglite) as unknown as Database;
  return { db, engine: "pglite", pglite, close: () => pglite.close() };
}

/** Applies the committed SQL migrations; on PostgreSQL one process at a time, under an advisory lock. */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.engine === "pglite") {
    // The handle keeps the engine-neutral type; the migrator wants the PGlite-specific one.
    await migratePglite(drizzlePglite(handle.pglite!), { migrationsFolder: MIGRATIONS_DIR });
    return;
  }
  const client = await handle.pool!.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/** True when `error` is PostgreSQL's unique-violation, e.g. a duplicate email. */
export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  // Drizzle wraps driver errors; the SQLSTATE sits on the cause.
  for (let i = 0; i < 3 && current; i++) {
    if ((current as { code?: string }).code === "23505") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

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
