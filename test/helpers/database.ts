// A fresh database for each test file, migrated once and copied per file: migrating from nothing
// (initdb, the SQL migrations, pg-boss's schema) is most of a file's start-up, and every file
// would repeat the same work. Here it runs once per set of migrations and the result is copied:
// - PGlite: a dump of the migrated data directory (`dumpDataDir`), kept on disk under
//   node_modules/.cache/test-db/<hash>.tar and loaded per file (`loadDataDir`) instead of initdb;
// - PostgreSQL: a template database `tpl_<hash>`, copied per file by CREATE DATABASE ... TEMPLATE.
// <hash> covers everything that shapes the migrated schema (drizzle/, pg-boss's and PGlite's
// versions), so a new or edited migration makes a new copy and a stale one is never used. The
// app's own start still runs both migrators; they find everything applied and return at once.
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { fromPglite, PgBoss } from "pg-boss";
import {
  type DatabaseHandle,
  migrateDatabase,
  type OpenOptions,
  openDatabase,
} from "../../src/platform/db/index.ts";
import { truncatedTarEntry } from "./tar.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CACHE_DIR = path.join(ROOT, "node_modules/.cache/test-db");

/** Bump when what goes into a copy changes without the inputs hashed below changing. */
const FORMAT = 3;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

function versionOf(pkg: string): string {
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve(pkg));
  // Walk up to the package's own package.json (the resolved entry sits in dist/).
  for (let at = dir; at !== path.dirname(at); at = path.dirname(at)) {
    try {
      const json = JSON.parse(readFileSync(path.join(at, "package.json"), "utf8"));
      if (json.name === pkg) return String(json.version);
    } catch {}
  }
  throw new Error(`no package.json found for ${pkg}`);
}

/** A short hash of everything the migrated schema depends on. */
export const schemaHash: string = (() => {
  const hash = createHash("sha256");
  hash.update(`format ${FORMAT}\n`);
  const drizzleDir = path.join(ROOT, "drizzle");
  for (const file of filesUnder(drizzleDir)) {
    hash.update(`${path.relative(drizzleDir, file)}\n`);
    hash.update(readFileSync(file));
  }
  hash.update(`pg-boss ${versionOf("pg-boss")}\npglite ${versionOf("@electric-sql/pglite")}\n`);
  return hash.digest("hex").slice(0, 16);
})();

/**
 * Everything the app's start would create in an empty database before it serves anything: the
 * SQL migrations and pg-boss's own schema (its tables, at its current version). Queues are left
 * out: they are the app's registered jobs, with options from the file's own settings
 * (JOB_TIMEOUT_SECONDS...), so each file's app makes its own (`ensureQueues`).
 */
async function migrateEverything(handle: DatabaseHandle): Promise<void> {
  await migrateDatabase(handle);
  // The same backend and schema as src/platform/jobs/index.ts; no supervisor nor cron, so the
  // copy holds only what pg-boss installs.
  const quiet = { supervise: false, schedule: false };
  const boss =
    handle.engine === "pglite"
      ? new PgBoss({ db: fromPglite(handle.pglite!), backend: "pglite", schema: "pgboss", ...quiet })
      : new PgBoss({ connectionString: handle.connectionString!, schema: "pgboss", max: 1, ...quiet });
  await boss.start();
  await boss.stop({ graceful: false });
}

// --- PGlite: one dump on disk, loaded per file -------------------------------------------------

let dump: Promise<Blob> | undefined;

/**
 * The tarball as PGlite's `loadDataDir` reads it (`type` and `arrayBuffer()`), over the bytes read
 * from disk: a real Blob hands a 40 MB body back in chunks that are then joined, 0.15 s of CPU per
 * file measured.
 */
function tarball(bytes: Uint8Array): Blob {
  // A file this size is read into a buffer of its own: handed over as it is, not copied (28 MB).
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const body = whole
    ? bytes.buffer
    : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return { type: "application/x-tar", arrayBuffer: async () => body } as unknown as Blob;
}

/**
 * initdb's template0 and template1 are a third of the data directory (15 of 44 MB) and every file
 * would load them into memory only to never use them: the embedded engine serves one database and
 * nothing here runs CREATE DATABASE on it. Dropping them made a file's open about 0.3 s of CPU and
 * 60 MB of memory cheaper (docs/benchmarks.md, "The test database without initdb's templates").
 */
async function dropTemplateDatabases(handle: DatabaseHandle): Promise<void> {
  for (const name of ["template0", "template1"]) {
    await handle.pglite!.exec(`alter database ${name} is_template false`);
    await handle.pglite!.exec(`drop database ${name}`);
  }
}

/**
 * The WAL a copy needs is the checkpoint's own record, but the dump held the migrations' whole
 * 16 MB segment, 60% of its bytes, which every file then unpacked into memory. Before the
 * checkpoint the WAL moves to a new segment and the old one is removed (not kept for reuse); the
 * new segment holds the checkpoint and nothing after it, so the dump keeps only its pages up to
 * the insert position. PostgreSQL starts on it as on the whole file (the WAL ends at the first
 * empty record either way) and writes on past the end. A copy opened about 0.2 s of CPU cheaper
 * (docs/benchmarks.md, "The test database's WAL").
 */
async function checkpointOnFreshSegment(handle: DatabaseHandle): Promise<void> {
  const pglite = handle.pglite!;
  await pglite.exec("set wal_recycle = off");
  await pglite.exec("select pg_switch_wal()");
  await pglite.exec("checkpoint");
}

/**
 * The WAL file in use and how many of its bytes to keep: every page up to the insert position.
 * Read after the dump, so WAL the dump itself wrote is kept too (pages beyond it are zeros).
 */
async function walToKeep(handle: DatabaseHandle): Promise<{ segment: string; bytes: number }> {
  const { rows } = await handle.pglite!.query<{ file_name: string; file_offset: number }>(
    "select file_name, file_offset from pg_walfile_name_offset(pg_current_wal_insert_lsn())",
  );
  const page = 8192;
  return { segment: rows[0].file_name, bytes: Math.max(page, Math.ceil(rows[0].file_offset / page) * page) };
}

async function makeDump(file: string): Promise<Blob> {
  const handle = await openDatabase({});
  try {
    await migrateEverything(handle);
    await dropTemplateDatabases(handle);
    // Written to the data files now, so a copy starts without replaying the migrations' WAL.
    await checkpointOnFreshSegment(handle);
    const dumped = new Uint8Array(await (await handle.pglite!.dumpDataDir("none")).arrayBuffer());
    const wal = await walToKeep(handle);
    const bytes = truncatedTarEntry(dumped, `pg_wal/${wal.segment}`, wal.bytes);
    // Several test files start at once and may all find no dump: each writes its own temporary
    // file and renames it into place, so a reader sees a whole dump or none.
    mkdirSync(CACHE_DIR, { recursive: true });
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    writeFileSync(temporary, bytes);
    renameSync(temporary, file);
    return tarball(bytes);
  } finally {
    await handle.close();
  }
}

/** The migrated data directory as a tarball: from the cache on disk, or made now and cached. */
function migratedDump(): Promise<Blob> {
  dump ??= (async () => {
    const file = path.join(CACHE_DIR, `${schemaHash}.tar`);
    try {
      return tarball(readFileSync(file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") rmSync(file, { force: true });
      return makeDump(file);
    }
  })();
  return dump;
}

// --- PostgreSQL: one template database, copied per file ------------------------------------------

/** Kept across runs on purpose: it is named by the hash, so the next run with the same migrations reuses it. */
export const templateName = `tpl_${schemaHash}`;

function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

let template: Promise<void> | undefined;

/**
 * Makes `templateName` if no earlier file or run did. Made under a temporary name and renamed when
 * complete, under an advisory lock so files starting together make it once (a lock within the
 * database DATABASE_URL names: runs on other databases of the server may race, and the rename
 * settles it); marked as a template that takes no connections, so CREATE DATABASE ... TEMPLATE
 * (which fails while anyone is connected to the template) never meets a straggler.
 */
function ensureTemplate(admin: pg.Client, url: string): Promise<void> {
  template ??= (async () => {
    const exists = async () =>
      (await admin.query("select 1 from pg_database where datname = $1", [templateName])).rowCount === 1;
    if (await exists()) return;
    await admin.query("select pg_advisory_lock(hashtext($1))", [templateName]);
    try {
      if (await exists()) return;
      const building = `${templateName}_${randomBytes(4).toString("hex")}`;
      await admin.query(`create database ${building}`);
      const handle = await openDatabase({ databaseUrl: databaseUrl(url, building), poolSize: 2 });
      try {
        await migrateEverything(handle);
      } finally {
        await handle.close();
      }
      try {
        await admin.query(`alter database ${building} rename to ${templateName}`);
      } catch (error) {
        // An advisory lock holds within one database only: a run whose DATABASE_URL names another
        // database of the same server (CI's journeys through PgBouncer, beside the suite) can make
        // the same template at the same time. Whichever renames second keeps the first's: it is
        // told "already exists" (42P04), or, when both renames meet in the catalogue, the unique
        // index on the database's name (23505).
        const code = (error as { code?: string }).code;
        if (code !== "42P04" && code !== "23505") throw error;
        await admin.query(`drop database if exists ${building}`);
        return;
      }
      await admin.query(`alter database ${templateName} with is_template true allow_connections false`);
    } finally {
      await admin.query("select pg_advisory_unlock(hashtext($1))", [templateName]);
    }
  })();
  return template;
}

/**
 * A migrated database of the suite's engine for one test file, and how to drop it.
 * DATABASE_DIRECT_URL and DATABASE_REPLICA_URL (scripts/ci-pgbouncer.sh, scripts/ci-replica.sh) name
 * the same server reached directly and its streaming replica: the database is made on the direct
 * one, and the app is given all three for it. `pool` sets DATABASE_POOL_SIZE and _WAIT_MS.
 */
export async function isolatedDatabase(
  pool: Pick<OpenOptions, "poolSize" | "poolWaitMs"> = {},
): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const direct = process.env.DATABASE_DIRECT_URL || undefined;
  const url = direct ?? process.env.DATABASE_URL;
  if (!url) {
    const handle = await openDatabase({ loadDataDir: await migratedDump() });
    return { handle, drop: async () => {} };
  }
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await ensureTemplate(admin, url);
    await admin.query(`create database ${name} template ${templateName} strategy file_copy`);
  } finally {
    await admin.end();
  }
  const named = (base: string | undefined) => (base ? databaseUrl(base, name) : undefined);
  const handle = await openDatabase({
    databaseUrl: named(process.env.DATABASE_URL),
    directUrl: named(direct),
    replicaUrl: named(process.env.DATABASE_REPLICA_URL || undefined),
    ...pool,
    onIdleError: () => {},
  });
  return {
    handle,
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      // Let connections that are closing finish before the drop forces the rest off.
      for (let i = 0; i < 50; i++) {
        const { rows } = await client.query(
          "select count(*)::int as n from pg_stat_activity where datname = $1",
          [name],
        );
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
