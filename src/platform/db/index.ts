// The database, in three parts: opening it and its types (open.ts), applying the migrations
// (migrate.ts), and hand-written statements: their builder, the guarded write and the runners
// (statements.ts). Statements and drivers run on performance shims over library internals, each
// pinned to the version it was measured on (shims/). Callers import from here.

export { migrateDatabase } from "./migrate.ts";
export {
  type Database,
  DatabaseBusyError,
  type DatabaseHandle,
  type Engine,
  type Executor,
  isUniqueViolation,
  type OpenOptions,
  openDatabase,
  PreparingClient,
  sessionConnectionString,
  type Tx,
} from "./open.ts";
export {
  drizzleRunner,
  fillRow,
  type GuardedWrite,
  insertRow,
  prepared,
  type RowTemplate,
  type Runner,
  rowKeys,
  rowOf,
  rowTemplate,
  statementRunner,
  textRunner,
  withValues,
  writeIf,
} from "./statements.ts";
