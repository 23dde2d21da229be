// Lists prepared by shape: the payments list's page and count, built and compiled once per
// combination of filters and only filled in afterwards (see `PreparedList`).
import { createHash } from "node:crypto";
import { and, count, eq, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgSelect, PgTable } from "drizzle-orm/pg-core";
import { type Database, prepared } from "../db/index.ts";
import {
  type ListedTable,
  type ListOf,
  type Neighbours,
  type Page,
  pageWindow,
  type Total,
  totalOf,
} from "./pagination.ts";

/**
 * A list whose filter is written with placeholders (`sql.placeholder`), its values apart, so that
 * its page's select and its count are built and compiled once per filter shape (`prepared`) and
 * only filled in afterwards: for the most-read list (payments), where building the two statements
 * cost the process more than PostgreSQL spent answering them (docs/benchmarks.md, "Lists built
 * once per shape"). The placeholders `cursor_id`, `limit`, `offset` and `cap` are this function's.
 */
export interface PreparedList<T extends ListedTable> extends ListOf<T> {
  /** Names the statements (with the kind of page and a digest of the shape): at most 40 bytes. */
  name: string;
  /**
   * The list's filter with placeholders; `shape` says which filters it holds (`status,price_id`).
   * `keysFirst` when the index serving it finds records out of list order (a range on another
   * column, as an amount range is): the page's keys are then picked and ordered first, from the
   * index alone when it holds `(created_at, id)`, and only those records read, where otherwise
   * every record matching would be read whole to be sorted (docs/benchmarks.md, "The amount
   * range's keys from its index"). Not for a filter read in list order: there it would add a
   * lookup by key for each record of the page.
   * `keysEach` when the filter holds a column to a short run of values (an amount range of a few
   * cents) and an index orders each value's records in list order (`(..., column, created_at, id)`):
   * each value's records are read in list order up to the page's end, and the page's keys picked
   * from those few, where `keysFirst` alone reads every key of the range to sort them
   * (docs/benchmarks.md, "An amount range, amount by amount").
   * `countAfterPage` for a search that usually finds a few records (a part of an email) or a list
   * that usually holds a few (an app's prices, a payment's events): the page
   * is read first, and a first page that holds them all is its own count, so the count is sent
   * only for a longer answer. Otherwise both go at once, on two connections.
   * `matchesFirst` for a filter the caller knows finds few records where the planner cannot tell
   * (a short text searched for, estimated by its length): the records matching are found first, by
   * the filter's own best path, and then ordered and paged, where the planner would otherwise read
   * the list in order expecting a page soon and, for a few matches, read it all.
   */
  where: {
    shape: string;
    sql: SQL;
    values: Record<string, unknown>;
    keysFirst?: boolean;
    keysEach?: KeysEach;
    countAfterPage?: boolean;
    matchesFirst?: boolean;
  };
}

/** A run of values read one by one: see `PreparedList`. */
export interface KeysEach {
  column: PgColumn;
  /** The placeholders of the run's first and last value. */
  from: string;
  to: string;
  /** The most values a run holds: the caller sends no longer one. */
  most: number;
}

/** Statement names made so far, by prefix and shape (as many as the filters' combinations). */
const statementNames = new Map<string, string>();

/**
 * A prepared statement's name for a list's shape. PostgreSQL keeps a name to its first 63 bytes,
 * so two long shapes alike that far would be one statement: the shape goes in as a digest.
 */
function statementName(prefix: string, shape: string): string {
  const key = `${prefix}\u0000${shape}`;
  let name = statementNames.get(key);
  if (name === undefined) {
    name = `${prefix}.${createHash("sha256").update(shape).digest("base64url").slice(0, 16)}`;
    statementNames.set(key, name);
  }
  return name;
}

/** `pageOfSelect` for a list prepared by shape: see `PreparedList`. */
export async function pageOfPrepared<Q extends PgSelect>(
  deps: { db: Database; config: { listCountCap: number } },
  page: Page,
  list: PreparedList<ListedTable>,
  select: (db: Database) => Q,
  idOf: (row: Q["_"]["result"][number]) => string,
): Promise<{ rows: Q["_"]["result"]; total: Total; neighbours: Neighbours }> {
  const window = await pageWindow(deps.db, page, list, sql.placeholder("cursor_id"));
  const cursor = page.startingAfter ?? page.endingBefore;
  const kind = cursor === undefined ? "page" : page.endingBefore === undefined ? "after" : "before";
  // A run read value by value, or matches found first, is another statement than the plain one.
  const { keysFirst, keysEach, matchesFirst } = list.where;
  const pageShape = `${list.where.shape}${keysEach ? ":each" : matchesFirst ? ":matches" : ""}`;
  const pageName = statementName(`${list.name}.${kind}`, pageShape);
  const countName = statementName(`${list.name}.count`, list.where.shape);
  const pageStatement = prepared(deps.db, pageName, (db) => {
    const where = and(list.where.sql, window.where);
    const inListOrder = <S extends PgSelect>(query: S) =>
      query
        .orderBy(...window.orderBy)
        .limit(sql.placeholder("limit"))
        .offset(sql.placeholder("offset"));
    if (!keysFirst && !keysEach && !matchesFirst)
      return inListOrder(select(db).where(where)).prepare(pageName);
    // The inner table shadows the outer one: the filter and the window read the key query's rows.
    const keys = keysEach
      ? keysValueByValue(db, list.table, where, window.orderBy, keysEach)
      : matchesFirst
        ? matchesThenOrder(db, list.table, where, window.orderBy)
        : inListOrder(
            db
              .select({ id: list.table.id })
              .from(list.table as PgTable)
              .where(where)
              .$dynamic(),
          );
    // `= any(array(...))`, not `in (...)`: the keys are an array computed first, then each row read
    // by its key. As a semi-join, a thousand keys estimated (a run of values is estimated so) had
    // the planner read the whole table to join them.
    return select(db)
      .where(sql`${list.table.id} = any(array${keys})`)
      .orderBy(...window.orderBy)
      .prepare(pageName);
  });
  const countStatement = prepared(deps.db, countName, (db) => {
    const upTo = db
      .select({ one: sql`1` })
      .from(list.table as PgTable)
      .where(list.where.sql)
      .limit(sql.placeholder("cap"))
      .as("counted");
    return db.select({ n: count() }).from(upTo).prepare(countName);
  });
  const cap = deps.config.listCountCap;
  const { values } = list.where;
  const fetching = pageStatement.execute({
    ...values,
    cursor_id: cursor,
    limit: window.limit,
    offset: window.offset,
    reach: window.limit + window.offset,
  });
  const counting = async () => (await countStatement.execute({ ...values, cap: cap + 1 }))[0].n;
  const [fetched, n] = list.where.countAfterPage
    ? await fetching.then(async (rows) => {
        // The first page by number, with no record after it: every record is on it.
        const whole = cursor === undefined && window.offset === 0 && rows.length < window.limit;
        return [rows, whole ? rows.length : await counting()] as const;
      })
    : await Promise.all([fetching, counting()]);
  const { rows, neighbours } = window.finish(fetched as Q["_"]["result"], idOf);
  return { rows, total: totalOf(n, cap), neighbours };
}

/**
 * What a list's own filters add to its scope, for `scopedTo`: conditions with placeholders, their
 * values apart, and the shape naming the filters set (one statement per shape). A filter's name is
 * its placeholder's: not `scope`, nor `pageOfPrepared`'s own (`cursor_id`, `limit`, `offset`,
 * `reach`, `cap`).
 */
export class Filters {
  readonly shape: string[] = [];
  readonly conditions: SQL[] = [];
  readonly values: Record<string, unknown> = {};

  /** Filter `name`: `condition` reads the placeholder of that name, which is `value`. */
  add(name: string, condition: (value: Placeholder) => SQL, value: unknown): this {
    this.values[name] = value;
    return this.fixed(name, condition(sql.placeholder(name)));
  }

  /** A condition written whole (its values part of the statement), named in the shape. */
  fixed(name: string, condition: SQL): this {
    this.shape.push(name);
    this.conditions.push(condition);
    return this;
  }
}

/**
 * A list kept to the records whose `column` is `value` (the app's, a payment's; the placeholder
 * `scope`), as `PreparedList` takes it: the scope a cursor must name a record of, with real values,
 * and the prepared filter, narrowed by `filters`. `kept`, a condition without values both hold
 * (the event log's "no test events"). `countAfterPage` as `PreparedList` says.
 */
export function scopedTo(
  column: PgColumn,
  value: unknown,
  filters = new Filters(),
  options: { kept?: SQL; countAfterPage?: boolean } = {},
) {
  return {
    scope: and(eq(column, value), options.kept) as SQL,
    where: {
      shape: filters.shape.join(","),
      sql: and(eq(column, sql.placeholder("scope")), options.kept, ...filters.conditions) as SQL,
      values: { scope: value, ...filters.values },
      countAfterPage: options.countAfterPage,
    },
  };
}

/** `pageOfRows` prepared by shape: a page of a table's own rows (see `PreparedList`). */
export async function pageOfPreparedRows<T extends ListedTable>(
  deps: { db: Database; config: { listCountCap: number } },
  page: Page,
  list: PreparedList<T>,
): Promise<{ rows: T["$inferSelect"][]; total: Total; neighbours: Neighbours }> {
  const { rows, total, neighbours } = await pageOfPrepared(
    deps,
    page,
    list,
    (db) =>
      db
        .select()
        .from(list.table as PgTable)
        .$dynamic(),
    (row) => (row as { id: string }).id,
  );
  return { rows: rows as T["$inferSelect"][], total, neighbours };
}

/**
 * The page's keys for `keysEach`: for each value of the run in turn, its first `reach` records in
 * list order (one short, ordered read of the index each), and of those the page's, in list order.
 * The lateral subquery is named after the table, so the window's order and the outer statement's
 * columns read its rows.
 */
function keysValueByValue(
  db: Database,
  table: ListedTable,
  where: SQL | undefined,
  orderBy: SQL[],
  each: KeysEach,
): SQL {
  // The column's own type, so that its index compares like with like.
  const type = sql.raw(each.column.getSQLType());
  const runOfOne = db
    .select({ id: table.id, createdAt: table.createdAt })
    .from(table as PgTable)
    .where(and(where, sql`${each.column} = wanted.value`))
    .orderBy(...orderBy)
    .limit(sql.placeholder("reach"));
  // The run's length is a parameter, so the planner assumes a thousand values: the constant limit
  // bounds its estimate by the run's real bound, else its plan for any run (a generic plan) looks
  // costlier than one made for the values at hand, and it plans the statement anew each time.
  const series = sql`(select value from generate_series(${sql.placeholder(each.from)}::${type}, ${sql.placeholder(each.to)}::${type}) as series(value) limit ${sql.raw(String(each.most))})`;
  return sql`(select ${table.id} from ${series} as wanted(value) cross join lateral (${runOfOne}) as ${table} order by ${sql.join(orderBy, sql`, `)} limit ${sql.placeholder("limit")} offset ${sql.placeholder("offset")})`;
}

/**
 * The page's keys for `matchesFirst`: the records matching, found apart (`offset 0` keeps the
 * subquery from being merged into the ordered, limited statement around it, so it is planned for
 * its filter alone), then ordered and paged. Named after the table, as `keysValueByValue`'s.
 */
function matchesThenOrder(db: Database, table: ListedTable, where: SQL | undefined, orderBy: SQL[]): SQL {
  const matches = db
    .select({ id: table.id, createdAt: table.createdAt })
    .from(table as PgTable)
    .where(where);
  return sql`(select ${table.id} from (${matches} offset 0) as ${table} order by ${sql.join(orderBy, sql`, `)} limit ${sql.placeholder("limit")} offset ${sql.placeholder("offset")})`;
}
