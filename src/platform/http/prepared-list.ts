// Lists prepared by shape: the payments list's page and count, built and compiled once per
// combination of filters and only filled in afterwards (see `PreparedList`).
import { createHash } from "node:crypto";
import { and, count, inArray, type SQL, sql } from "drizzle-orm";
import type { PgSelect, PgTable } from "drizzle-orm/pg-core";
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
   * `countAfterPage` for a search that usually finds a few records (a part of an email): the page
   * is read first, and a first page that holds them all is its own count, so the count is sent
   * only for a longer answer. Otherwise both go at once, on two connections.
   */
  where: {
    shape: string;
    sql: SQL;
    values: Record<string, unknown>;
    keysFirst?: boolean;
    countAfterPage?: boolean;
  };
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
  const pageName = statementName(`${list.name}.${kind}`, list.where.shape);
  const countName = statementName(`${list.name}.count`, list.where.shape);
  const pageStatement = prepared(deps.db, pageName, (db) => {
    const where = and(list.where.sql, window.where);
    const inListOrder = <S extends PgSelect>(query: S) =>
      query
        .orderBy(...window.orderBy)
        .limit(sql.placeholder("limit"))
        .offset(sql.placeholder("offset"));
    if (!list.where.keysFirst) return inListOrder(select(db).where(where)).prepare(pageName);
    // The inner table shadows the outer one: the filter and the window read the key query's rows.
    const keys = inListOrder(
      db
        .select({ id: list.table.id })
        .from(list.table as PgTable)
        .where(where)
        .$dynamic(),
    );
    return select(db)
      .where(inArray(list.table.id, keys))
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
