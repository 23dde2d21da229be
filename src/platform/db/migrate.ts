import path from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import type { DatabaseHandle } from "./open.ts";

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../drizzle");

// Any fixed number works; it only has to be the same for every process migrating this database.
const MIGRATION_LOCK_KEY = 7_314_802_211;

/**
 * Applies the committed SQL migrations; on PostgreSQL one process at a time, under an advisory lock.
 * The lock is the session's, so the migration runs on a connection of its own to the primary
 * (DATABASE_DIRECT_URL when DATABASE_URL may be a transaction-mode pooler).
 */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.engine === "pglite") {
    // The handle keeps the engine-neutral type; the migrator wants the PGlite-specific one.
    await migratePglite(drizzlePglite(handle.pglite!), { migrationsFolder: MIGRATIONS_DIR });
    return;
  }
  if (handle.directConnectionString) {
    const direct = new pg.Client({ connectionString: handle.directConnectionString });
    await direct.connect();
    try {
      await migrateOn(direct);
    } finally {
      await direct.end();
    }
    return;
  }
  const client = await handle.pool!.connect();
  try {
    await migrateOn(client);
  } finally {
    client.release();
  }
}

async function migrateOn(client: pg.Client | pg.PoolClient) {
  await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
  try {
    await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
  }
}
