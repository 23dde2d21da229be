/*
 * PERFORMANCE SHIM: a prepared statement's row description asked for once per connection.
 *
 * What: for every execution of a prepared statement, node-postgres sends Bind, Describe (portal),
 * Execute and Sync (pg/lib/query.js `prepare`), so PostgreSQL answers each run with the statement's
 * row description (a name and five numbers per column) and pg-protocol parses it again. A named
 * statement's columns cannot change on a connection: PostgreSQL fixes a protocol-prepared
 * statement's result type when it is parsed, and a run whose plan would change it fails at Bind
 * ("cached plan must not change result type"). `installPgDescribeShim` wraps `Query.prototype.prepare`:
 * the first run of a named statement on a connection describes it as pg does and remembers the
 * answer (its fields, or none for a statement without rows); later runs send Bind, Execute and Sync
 * and hand the remembered fields to the query before its rows arrive, as the message would have.
 * Unnamed statements (PgBouncer's `UnnamedStatementClient`), cursors (`rows`), portals and binary
 * results go through pg's own `prepare`. A run that fails forgets the description, so the next run
 * asks again. It relies on `Query`'s `name`, `values`, `binary`, `portal`, `rows`, `hasBeenParsed`,
 * `handleRowDescription`, `handleCommandComplete`, `handleError` and `_getRows`, on pg's `utils.prepareValue`,
 * and on `Connection`'s `bind`, `close` and `sync`.
 *
 * Why, as measured (docs/benchmarks.md, "A prepared statement described once"): a CPU profile of
 * `GET /payments/{app_id}/{payment_id}` on PostgreSQL (`BENCH_DATABASE_URL=… npm run bench:profile
 * -- get 12`; its statement answers about fifty columns) put pg-protocol's
 * `parseRowDescriptionMessage` at 7.4% of the route's samples outside system calls.
 * `BENCH_AB_MEASURES="GET /payments/{app_id}/{payment_id}" BENCH_AB_WORKER=off BENCH_AB_ROUNDS=6
 * BENCH_DATABASE_URL=… npm run bench:ab -- 7dbf19e`: with the shim, the GET by id 1.09 times the
 * rate (1.02-1.21) at 0.91 of the CPU a request; the same run without it 1.03 (0.94-1.16) at 0.98.
 *
 * Written against: pg 8.23.1 (`PINNED_VERSION`; the version in package-lock.json).
 *
 * On upgrade: test/platform/pg-describe-shim.test.ts fails first, naming this file. Then
 * 1. diff pg's `Query.prepare`, `handleRowDescription`, `handleCommandComplete` and `handleError`
 *    with what `prepare` below does;
 * 2. run test/platform/pg-describe-shim.test.ts, which records what a named statement's runs send
 *    and reads their rows with and without it, and the suite on PostgreSQL;
 * 3. if pg no longer describes a prepared statement on every run, delete this file and its call
 *    in src/platform/db/open.ts;
 * 4. else move `PINNED_VERSION`.
 */
import { createRequire } from "node:module";

/** The pg version this shim was written and measured against (see the comment above). */
export const PINNED_VERSION = "8.23.1";

interface PgConnection {
  bind(message: object): void;
  close(message: { type: "S"; name: string }): void;
  sync(): void;
}
/** A statement's row description as pg-protocol hands it over; null for a statement without rows. */
type Fields = object[] | null;
interface PgQuery {
  name?: string;
  values?: unknown[];
  binary?: boolean;
  portal?: string;
  rows?: number;
  isPreparedStatement?: boolean;
  hasBeenParsed(connection: PgConnection): boolean;
  handleRowDescription(message: { fields: object[] }): void;
  handleCommandComplete(message: object, connection: PgConnection): void;
  handleError(error: Error, connection: PgConnection): void;
  _getRows(connection: PgConnection, rows?: number): void;
  prepare(connection: PgConnection): void;
}
/** What a run of a statement is doing with its connection's descriptions. */
interface Run {
  descriptions: Map<string, Fields>;
  /** This run described the statement: its answer is remembered when it comes. */
  learning: boolean;
}

// pg's own copies of its Query class and of the value mapper its `prepare` binds with.
const requireFromPg = createRequire(createRequire(import.meta.url).resolve("pg"));
const Query = requireFromPg("./query.js") as { prototype: PgQuery };
const { prepareValue } = requireFromPg("./utils.js") as { prepareValue(value: unknown): unknown };
const pg = {
  prepare: Query.prototype.prepare,
  handleRowDescription: Query.prototype.handleRowDescription,
  handleCommandComplete: Query.prototype.handleCommandComplete,
  handleError: Query.prototype.handleError,
};

/** Each connection's statements, by name: what their Describe answered. */
const byConnection = new WeakMap<PgConnection, Map<string, Fields>>();
/** The run each query is, while it runs (queries are pg's, so the state is kept beside them). */
const runs = new WeakMap<PgQuery, Run>();

function descriptionsOf(connection: PgConnection) {
  let descriptions = byConnection.get(connection);
  if (!descriptions) {
    descriptions = new Map();
    byConnection.set(connection, descriptions);
  }
  return descriptions;
}

function prepare(this: PgQuery, connection: PgConnection): void {
  const name = this.name;
  if (!name || this.rows || this.portal || this.binary) {
    pg.prepare.call(this, connection);
    return;
  }
  const descriptions = descriptionsOf(connection);
  const fields = descriptions.get(name);
  if (fields === undefined || !this.hasBeenParsed(connection)) {
    runs.set(this, { descriptions, learning: true });
    pg.prepare.call(this, connection);
    return;
  }
  runs.set(this, { descriptions, learning: false });
  this.isPreparedStatement = true;
  // As pg's own `prepare` binds, and undoes a bind that throws (a value it cannot send).
  try {
    connection.bind({ portal: "", statement: name, values: this.values, valueMapper: prepareValue });
  } catch (error) {
    connection.close({ type: "S", name });
    connection.sync();
    this.handleError(error as Error, connection);
    return;
  }
  // The rows come as the remembered description says, as if PostgreSQL had sent it again.
  if (fields) pg.handleRowDescription.call(this, { fields });
  this._getRows(connection, undefined);
}

function handleRowDescription(this: PgQuery, message: { fields: object[] }): void {
  const run = runs.get(this);
  if (run?.learning) {
    run.descriptions.set(this.name as string, message.fields);
    run.learning = false;
  }
  pg.handleRowDescription.call(this, message);
}

function handleCommandComplete(this: PgQuery, message: object, connection: PgConnection): void {
  const run = runs.get(this);
  // Complete with no description before it: PostgreSQL answered the Describe with NoData.
  if (run?.learning) {
    run.descriptions.set(this.name as string, null);
    run.learning = false;
  }
  pg.handleCommandComplete.call(this, message, connection);
}

function handleError(this: PgQuery, error: Error, connection: PgConnection): void {
  const run = runs.get(this);
  // Whatever failed, the next run of the statement on this connection describes it again.
  if (run) {
    run.descriptions.delete(this.name as string);
    run.learning = false;
  }
  pg.handleError.call(this, error, connection);
}

/** Puts the shim's methods on pg's `Query` (once per process; nothing else changes). */
export function installPgDescribeShim(): void {
  Object.assign(Query.prototype, { prepare, handleRowDescription, handleCommandComplete, handleError });
}

/** pg's own methods back, for the test that compares the two. */
export function uninstallPgDescribeShim(): void {
  Object.assign(Query.prototype, pg);
}
