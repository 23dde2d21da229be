/*
 * PERFORMANCE SHIM: the rows of a prepared select turned into objects by a mapper made once per
 * statement, where Drizzle decides again for every column of every row.
 *
 * What: Drizzle's `mapResultRow` (drizzle-orm/utils.js) finds each selected field's decoder by
 * `is(field, Column)`, `is(field, SQL)`, … (each a walk up the prototype chain), walks the field's
 * path with an iterator, and for a joined table's columns looks up the table's name, all per column
 * and per row. `rowMapper` decides those once, when the statement is prepared: a row is then one
 * generated object literal with Drizzle's keys in Drizzle's order (as fast-json-stringify
 * generates its serializers), a decoder called only where it is not Drizzle's identity, and
 * Drizzle's nulling of a joined table's object only when a left-joined table may be missing; its
 * answer is the one Drizzle gives (test/platform/db-shims.test.ts holds the two to the same rows).
 * `withRowMapper` sets it as the prepared query's `customResultMapper`, the hook Drizzle's
 * relational queries use, on both the node-postgres and the PGlite session. It leans on Drizzle's
 * internals: a prepared query's `fields` (`{ path, field }[]`), `joinsNotNullableMap` and
 * `customResultMapper`, the decoder of a field (`Column` itself, `SQL.decoder`,
 * `Subquery._.sql.decoder`, `SQL.Aliased.sql.decoder`), and `Column.prototype.mapFromDriverValue`
 * being the identity.
 *
 * Why, as measured (docs/benchmarks.md, "The rows of a prepared statement mapped once"): a CPU
 * profile of `GET /payments/{app_id}/{payment_id}` on PostgreSQL (`BENCH_DATABASE_URL=… npm run
 * bench:profile -- get 10`; its statement selects the payment, the app, its creator and the price,
 * about a hundred columns) put drizzle-orm at 12.3% of the route's busy samples, nearly all of it
 * `mapResultRow` and the `is` checks it makes; with this shim, 2.1%. `BENCH_AB_ROUNDS=5
 * BENCH_AB_WORKER=off BENCH_DATABASE_URL=… npm run bench:ab -- d0ac23a`: the GET by id's CPU a
 * request 0.90 of before (0.82-1.05), `GET /apps/{app_id}`'s 0.89 (0.83-0.99); the list and the
 * create, which run no prepared select, 1.01 and 1.03.
 *
 * Written against: drizzle-orm 0.45.4 (`PINNED_VERSION`; the version in package-lock.json).
 *
 * On upgrade: test/platform/db-shims.test.ts fails first, naming this file. Then
 * 1. diff Drizzle's `mapResultRow` (drizzle-orm/utils.js) with `rowMapper` below: a new kind of
 *    field or a change in how a row is built must be copied here;
 * 2. run test/platform/db-shims.test.ts, which compares the two on a joined statement;
 * 3. if Drizzle's own mapper has become as cheap (make `withRowMapper` answer its input and
 *    profile the route as above), delete this file and its call in `prepared`
 *    (src/platform/db/statements.ts);
 * 4. else move `PINNED_VERSION` with the new version.
 */
import { Column, getTableName, is, SQL, Subquery } from "drizzle-orm";

export const PINNED_VERSION = "0.45.4";

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/** A selected field as Drizzle keeps it in a prepared query. */
export interface SelectedField {
  path: string[];
  field: unknown;
}

interface Step {
  /** The path's parts before the last: the nested objects the value goes in. */
  parents: string[];
  key: string;
  decoder: Decoder;
  /** For a column of a joined table (a path of two): the table's name, which may null the object. */
  table: string | undefined;
  objectName: string;
}

/** Where Drizzle keeps an `sql` part's decoder (a property its typings do not declare). */
const decoderOfSql = (part: unknown) => (part as { decoder: Decoder }).decoder;

function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field as unknown as Decoder;
  if (is(field, SQL)) return decoderOfSql(field);
  if (is(field, Subquery)) return decoderOfSql((field as unknown as { _: { sql: unknown } })._.sql);
  return decoderOfSql((field as { sql: unknown }).sql);
}

/** Drizzle's base decoder, which answers its input: a column that keeps it needs no call. */
const IDENTITY = Column.prototype.mapFromDriverValue;

/**
 * Drizzle's `mapResultRow` for these fields, decided once: a function of the driver's rows. The
 * row's object is written as one literal (generated, as fast-json-stringify writes its
 * serializers), so every row has the same shape from its first property, and a decoder that is
 * Drizzle's identity is not called. Undefined for a selection a literal cannot write (a path that
 * is both a value and an object): Drizzle's own mapper keeps it.
 */
export function rowMapper(
  fields: readonly SelectedField[],
  joinsNotNullableMap: Record<string, boolean> | undefined,
): ((rows: unknown[][]) => Record<string, unknown>[]) | undefined {
  const steps: Step[] = fields.map(({ path, field }) => ({
    parents: path.slice(0, -1),
    key: path[path.length - 1],
    decoder: decoderOf(field),
    table:
      joinsNotNullableMap && is(field, Column) && path.length === 2
        ? getTableName((field as Column).table)
        : undefined,
    objectName: path[0],
  }));
  // The literal's tree: each path's parts in the order Drizzle first writes them.
  interface Tree {
    children: Map<string, Tree | number>;
  }
  const root: Tree = { children: new Map() };
  for (const [i, step] of steps.entries()) {
    let node = root;
    for (const part of step.parents) {
      let child = node.children.get(part);
      if (typeof child === "number") return undefined;
      if (child === undefined) {
        child = { children: new Map() };
        node.children.set(part, child);
      }
      node = child;
    }
    if (typeof node.children.get(step.key) === "object") return undefined;
    node.children.set(step.key, i);
  }
  const value = (i: number) => {
    const step = steps[i];
    const decode = step.decoder.mapFromDriverValue === IDENTITY ? "" : `decoders[${i}].mapFromDriverValue`;
    return decode ? `(row[${i}] === null ? null : ${decode}(row[${i}]))` : `row[${i}]`;
  };
  const literal = (tree: Tree): string =>
    `{${[...tree.children]
      .map(
        ([key, child]) =>
          `${JSON.stringify(key)}: ${typeof child === "number" ? value(child) : literal(child)}`,
      )
      .join(", ")}}`;
  const build = new Function("decoders", `return (row) => (${literal(root)});`)(
    steps.map((step) => step.decoder),
  ) as (row: unknown[]) => Record<string, unknown>;
  // A joined table's object is null when every one of its columns is (Drizzle's rule, kept as is).
  // Only a table that may be missing (a left join's) is ever nulled: with none, nothing is looked at.
  const joined =
    joinsNotNullableMap &&
    steps.some((step) => step.table !== undefined && !joinsNotNullableMap[step.table]) &&
    joinsNotNullableMap;
  const mapRow = (row: unknown[]): Record<string, unknown> => {
    const result = build(row);
    if (!joined) return result;
    const nullify: Record<string, string | false> = {};
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i];
      if (step.table === undefined) continue;
      const seen = nullify[step.objectName];
      const isNull = (result[step.objectName] as Record<string, unknown>)[step.key] === null;
      if (seen === undefined) nullify[step.objectName] = isNull ? step.table : false;
      else if (typeof seen === "string" && seen !== step.table) nullify[step.objectName] = false;
    }
    for (const objectName in nullify) {
      const table = nullify[objectName];
      if (typeof table === "string" && !joined[table]) result[objectName] = null;
    }
    return result;
  };
  return (rows) => rows.map(mapRow);
}

interface PreparedSelect {
  fields?: SelectedField[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: unknown;
}

/** `statement` (any prepared query) with its rows mapped by `rowMapper` when it selects fields. */
export function withRowMapper<T>(statement: T): T {
  const query = statement as PreparedSelect;
  // No catch: a Drizzle internal that changed shape must fail here, loudly, not fall back unseen.
  if (query && Array.isArray(query.fields) && query.customResultMapper === undefined) {
    query.customResultMapper = rowMapper(query.fields, query.joinsNotNullableMap);
  }
  return statement;
}
