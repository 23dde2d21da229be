import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
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

// node-postgres parses int8 into strings by default; money columns are bigint and must stay exact.
// Set once for the process, when the first module opens a database.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => BigInt(value));

export interface OpenOptions {
  /** PostgreSQL connection string; absent means the embedded engine. */
  databaseUrl?: string;
  /** Data directory for the embedded engine; absent means in memory (tests). */
  dataDir?: string;
  /**
   * Tests: an in-memory embedded database starts as a copy of this dump (PGlite's `dumpDataDir`)
   * instead of running initdb (test/helpers/database.ts).
   */
  loadDataDir?: Blob;
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
  // One options object: PGlite reads its second argument only when the first is a data directory,
  // so `new PGlite(undefined, options)` (in memory) would drop these settings unseen.
  const pglite = new StatementCachingPGlite({
    dataDir: dir,
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffers}MB`],
    loadDataDir: options.loadDataDir,
  });
  await pglite.waitReady;
  const db = drizzlePglite(pglite) as unknown as Database;
  return { db, engine: "pglite", pglite, close: () => pglite.close() };
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
