import { ConfigError, type Env, integer } from "./parse.ts";

/** How each process reaches PostgreSQL beyond its one connection string (docs/reliability.md, "Pools"). */
export interface DatabaseSettings {
  /** Connections this process's query pool opens at most (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  /** How long a query waits for a free pooled connection before the request answers 503 (DATABASE_POOL_WAIT_MS). */
  databasePoolWaitMs: number;
  /**
   * A direct connection to the primary (DATABASE_DIRECT_URL), used only for what needs a session of
   * its own: LISTEN (job wake-ups, credential revocations) and migrations. When set, DATABASE_URL may
   * go through a transaction-mode pooler (PgBouncer), and no named prepared statement is sent there.
   */
  databaseDirectUrl: string | undefined;
  /** A streaming replica (DATABASE_REPLICA_URL) for reads that tolerate lag: lists, public pages. */
  databaseReplicaUrl: string | undefined;
}

export function loadDatabaseSettings(env: Env): DatabaseSettings {
  return {
    databasePoolSize: integer(env, "DATABASE_POOL_SIZE", 20, 1, 1000),
    databasePoolWaitMs: integer(env, "DATABASE_POOL_WAIT_MS", 10_000, 1, 600_000),
    databaseDirectUrl: postgresUrl(env, "DATABASE_DIRECT_URL"),
    databaseReplicaUrl: postgresUrl(env, "DATABASE_REPLICA_URL"),
  };
}

function postgresUrl(env: Env, name: string): string | undefined {
  const value = env[name] || undefined;
  if (value === undefined) return undefined;
  if (!/^postgres(ql)?:\/\//.test(value))
    throw new ConfigError(name, "must start with postgres:// or postgresql://");
  if (!env.DATABASE_URL)
    throw new ConfigError(name, "needs DATABASE_URL (the embedded database has no other connection)");
  return value;
}
