import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import * as schema from "./schema.ts";

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
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

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../drizzle");

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
  onIdleError?: (error: Error) => void;
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 20 });
    // An idle connection the server drops (restart, failover) must not crash the process: the pool
    // replaces it on the next checkout.
    pool.on("error", (error) => options.onIdleError?.(error));
    const db = drizzlePg(pool, { schema }) as unknown as Database;
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
  const pglite = new PGlite(dir);
  await pglite.waitReady;
  const db = drizzlePglite(pglite, { schema }) as unknown as Database;
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
