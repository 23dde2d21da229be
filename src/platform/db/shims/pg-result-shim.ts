/*
 * PERFORMANCE SHIM: node-postgres's row description read without the row object it never uses.
 *
 * What: PostgreSQL sends a row description with every execution of a statement, and pg's
 * `Result.addFields` (pg/lib/result.js) then finds each column's parser and builds an empty row
 * object with every column's name (a null-prototype object filled key by key, then copied) for
 * `parseRow` to copy per row. Drizzle asks for rows as arrays (`rowMode: "array"`), where pg reads
 * them with `_parseRowAsArray` and that object is never used. `installPgResultShim` replaces
 * `addFields` on `Result.prototype` with one that, for array rows, sets the fields and parsers
 * exactly as pg does and skips the object; rows as objects (pg-boss, hand-written statements) go to
 * pg's own `addFields`. It relies on `Result`'s fields `rowAsArray`, `fields`, `_parsers`,
 * `_types`, and on `_parseRowAsArray` reading only `_parsers`.
 *
 * Why, as measured (docs/benchmarks.md, "The row description without pg's row object"): a CPU
 * profile of `GET /payments/{app_id}/{payment_id}` on PostgreSQL (`BENCH_DATABASE_URL=… npm run
 * bench:profile -- get 10`; its statement selects the payment, its app, the app's creator and the
 * price, about a hundred columns) put `addFields` at 6.3% of the route's busy samples, pg at 10.4%;
 * with this shim `addFields` is not among the 30 heaviest functions and pg is at 4.1%.
 * `BENCH_AB_ROUNDS=5 BENCH_AB_WORKER=off BENCH_DATABASE_URL=… npm run bench:ab -- 5eeba21`: the
 * GET by id 1.10 times the rate (1.07-1.20 over five rounds) at 0.88 of the CPU a request, the list's
 * page 1.09 (1.06-1.17) at 0.89, the create unchanged (0.99).
 *
 * Written against: pg 8.23.1 (`PINNED_VERSION`; the version in package-lock.json).
 *
 * On upgrade: test/platform/db-shims.test.ts fails first, naming this file. Then
 * 1. diff pg's `Result` (`addFields`, `_parseRowAsArray`, the constructor) with `addFields` below;
 * 2. run test/platform/db-shims.test.ts, which reads the same rows through pg with and without it;
 * 3. if pg no longer builds the row object for array rows, delete this file and its call in
 *    src/platform/db/open.ts;
 * 4. else move `PINNED_VERSION`.
 */
import { createRequire } from "node:module";

/** The pg version this shim was written and measured against (see the comment above). */
export const PINNED_VERSION = "8.23.1";

interface FieldDescription {
  dataTypeID: number;
  format?: string;
}
interface TypeParsers {
  getTypeParser(oid: number, format: string): (value: string) => unknown;
}
interface PgResult {
  rowAsArray: boolean;
  fields: FieldDescription[];
  _parsers: unknown[] | undefined;
  _types: TypeParsers | undefined;
  addFields(fields: FieldDescription[]): void;
}

// pg's own copies of its Result class and of pg-types (the one its Result falls back to).
const requireFromPg = createRequire(createRequire(import.meta.url).resolve("pg"));
const Result = requireFromPg("./result.js") as { prototype: PgResult };
const pgTypes = requireFromPg("pg-types") as TypeParsers;
const pgAddFields = Result.prototype.addFields;

function addFields(this: PgResult, fields: FieldDescription[]): void {
  if (!this.rowAsArray) {
    pgAddFields.call(this, fields);
    return;
  }
  this.fields = fields;
  if (fields.length === 0) return;
  const types = this._types ?? pgTypes;
  const parsers = new Array(fields.length);
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] as FieldDescription;
    parsers[i] = types.getTypeParser(field.dataTypeID, field.format || "text");
  }
  this._parsers = parsers;
}

/** Puts the shim's `addFields` on pg's `Result` (once per process; nothing else changes). */
export function installPgResultShim(): void {
  Result.prototype.addFields = addFields;
}

/** pg's own `addFields`, for the test that compares the two. */
export function uninstallPgResultShim(): void {
  Result.prototype.addFields = pgAddFields;
}
