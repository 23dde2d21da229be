import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { installPgDescribeShim } from "./shims/pg-describe-shim.ts";
import { installPgQueryConfigShim } from "./shims/pg-query-config-shim.ts";
import { installPgResultShim } from "./shims/pg-result-shim.ts";
import { StatementCachingPGlite } from "./shims/pglite-prepared-shim.ts";
import { repeatedName } from "./statement-names.ts";

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
  /**
   * For reads that tolerate lag (lists, public pages): the streaming replica of
   * DATABASE_REPLICA_URL, else `db` itself. Never for a read that must see the caller's own write.
   */
  lagging?: Database;
  engine: Engine;
  /** Set on the embedded engine; pg-boss shares this one connection. */
  pglite?: PGlite;
  /** Set on PostgreSQL. */
  pool?: pg.Pool;
  /** DATABASE_URL: every query, possibly through a transaction-mode pooler (see `direct`). */
  connectionString?: string;
  /**
   * A direct connection to the primary (DATABASE_DIRECT_URL), for what needs a session of its own:
   * LISTEN and migrations. Absent: `connectionString` is direct itself.
   */
  directConnectionString?: string;
  close(): Promise<void>;
}

/** The connection string for a session of its own (LISTEN, a migration's advisory lock). */
export const sessionConnectionString = (handle: DatabaseHandle) =>
  handle.directConnectionString ?? handle.connectionString;

/**
 * A query waited DATABASE_POOL_WAIT_MS for a pooled connection and got none: every connection of
 * the pool is busy (or the server does not answer). The HTTP layer answers 503 with Retry-After.
 */
export class DatabaseBusyError extends Error {
  constructor(cause: unknown) {
    super("No database connection became free in time", { cause });
    this.name = "DatabaseBusyError";
  }
}

// pg-pool's own words for a checkout that timed out; it sets no code.
const POOL_TIMEOUT = "timeout exceeded when trying to connect";
const asBusy = (error: unknown) =>
  error instanceof Error && error.message === POOL_TIMEOUT ? new DatabaseBusyError(error) : error;

/** pg's Pool whose checkout timeout is a `DatabaseBusyError` (pool.query checks out through here too). */
class WaitingPool extends pg.Pool {
  // biome-ignore lint/suspicious/noExplicitAny: pg's overloads (callback or promise) pass through
  override connect(callback?: any): any {
    if (callback) {
      return super.connect((error, client, done) =>
        (callback as (...args: unknown[]) => void)(error ? asBusy(error) : error, client, done),
      );
    }
    return super.connect().catch((error) => {
      throw asBusy(error);
    });
  }
}

/**
 * A client that sends every statement unnamed. Behind PgBouncer in transaction mode (before 1.21,
 * as Debian's 1.18) consecutive statements of one client may reach different server connections,
 * so a statement prepared on one is unknown on the next. Unnamed statements are parsed each time.
 */
class UnnamedStatementClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query overloads pass through unchanged
  override query(config: any, ...rest: any[]): any {
    if (config && typeof config === "object" && typeof config.name === "string") {
      const { name: _name, ...unnamed } = config;
      return (super.query as (...args: unknown[]) => unknown)(unnamed, ...rest);
    }
    return (super.query as (...args: unknown[]) => unknown)(config, ...rest);
  }
}

/**
 * A client that prepares every statement it is sent again (`repeatedName`): Drizzle, pg-boss and
 * pg send a statement unnamed unless told, so PostgreSQL parses and plans it on every run. Only a
 * statement with parameters: one without goes by the simple protocol, which may hold several
 * commands (a migration) that a prepared statement cannot. Drizzle reuses its config object for
 * every run, so the name goes on a copy; a submittable (a cursor, a stream) is left as it is, and
 * so is a statement named `""` (pg's unnamed statement, asked for by name).
 */
export class PreparingClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query overloads pass through unchanged
  override query(config: any, ...rest: any[]): any {
    const values = Array.isArray(rest[0]) ? rest[0] : config?.values;
    if (values?.length > 0) {
      if (typeof config === "string") {
        const statement = repeatedName(config);
        if (statement) config = { name: statement.name, text: statement.text };
      } else if (
        typeof config?.text === "string" &&
        typeof config.submit !== "function" &&
        config.name === undefined
      ) {
        const statement = repeatedName(config.text);
        if (statement) config = { ...config, name: statement.name, text: statement.text };
      }
    }
    return (super.query as (...args: unknown[]) => unknown)(config, ...rest);
  }
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
  /** Connections the query pool opens at most (DATABASE_POOL_SIZE); 20 when absent. */
  poolSize?: number;
  /** How long a query waits for a pooled connection (DATABASE_POOL_WAIT_MS); absent: for ever. */
  poolWaitMs?: number;
  /** DATABASE_DIRECT_URL: set when `databaseUrl` may be a transaction-mode pooler. */
  directUrl?: string;
  /** DATABASE_REPLICA_URL: a streaming replica for reads that tolerate lag. */
  replicaUrl?: string;
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
    // Drizzle's rows come as arrays, for which pg need not build a row object (a performance shim).
    installPgResultShim();
    // A prepared statement's row description is asked for once per connection (a performance shim).
    installPgDescribeShim();
    // A statement's config, an object literal, is copied as one (a performance shim).
    installPgQueryConfigShim();
    const openPool = (connectionString: string) => {
      const pool = new WaitingPool({
        connectionString,
        max: options.poolSize ?? 20,
        connectionTimeoutMillis: options.poolWaitMs,
        // With a direct URL beside it, DATABASE_URL may be PgBouncer in transaction mode.
        Client: options.directUrl ? UnnamedStatementClient : PreparingClient,
      });
      // An idle connection the server drops (restart, failover) must not crash the process: the
      // pool replaces it on the next checkout.
      pool.on("error", (error) => options.onIdleError?.(error));
      return pool;
    };
    const pool = openPool(options.databaseUrl);
    const db = drizzlePg(pool) as unknown as Database;
    const replicaPool = options.replicaUrl ? openPool(options.replicaUrl) : undefined;
    return {
      db,
      lagging: replicaPool ? (drizzlePg(replicaPool) as unknown as Database) : db,
      engine: "postgres",
      pool,
      connectionString: options.databaseUrl,
      directConnectionString: options.directUrl,
      close: async () => {
        await Promise.all([pool.end(), replicaPool?.end()]);
      },
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
  // One options object: PGlite's two-argument form drops its options when the directory is
  // undefined (an in-memory database), extensions included.
  const pglite = new StatementCachingPGlite({
    dataDir: dir,
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffers}MB`],
    // Trigram indexes serve "contains" searches (a shopper's email); PostgreSQL ships it in contrib.
    extensions: { pg_trgm },
    loadDataDir: options.loadDataDir,
  });
  await pglite.waitReady;
  const db = drizzlePglite(pglite) as unknown as Database;
  return { db, lagging: db, engine: "pglite", pglite, close: () => pglite.close() };
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
