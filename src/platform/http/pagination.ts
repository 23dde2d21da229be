import { and, asc, count, desc, eq, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgSelect, PgTable } from "drizzle-orm/pg-core";
import type { FastifyReply, FastifyRequest } from "fastify";
import { type Static, type TSchema, Type } from "typebox";
import type { Executor } from "../db/index.ts";
import { invalid } from "./errors.ts";

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
/** The page sizes, for the pagination guide of the API's documentation (guides.ts). */
export const LIST_LIMITS = Object.freeze({ defaultLimit: DEFAULT_LIMIT, maxLimit: MAX_LIMIT });
/** Far past any real list; keeps the row offset (page x limit) well inside a bigint. */
const MAX_PAGE = 1_000_000;
/** Default of `LIST_COUNT_CAP`: `X-Total-Count` is exact up to here, then reported as capped. */
export const DEFAULT_COUNT_CAP = 1_000;

const Cursor = (description: string) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: 64, description }));

export const pageFields = {
  page: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: "1-based page number" }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: "Page size" }),
  ),
  starting_after: Cursor("Cursor: the page that follows this record's id in the list (no OFFSET)"),
  ending_before: Cursor("Cursor: the page that precedes this record's id in the list (no OFFSET)"),
};

/** The list query string: `page` (1-based), `limit` (1 to 100) and the cursors; anything else is refused. */
export const ListQuery = Type.Object(pageFields, { additionalProperties: false });
export type ListQuery = Static<typeof ListQuery>;

export interface Page {
  page: number;
  limit: number;
  offset: number;
  startingAfter?: string;
  endingBefore?: string;
}

export function pageOf(query: {
  page?: number;
  limit?: number;
  starting_after?: string;
  ending_before?: string;
}): Page {
  const page = query.page ?? 1;
  const limit = query.limit ?? DEFAULT_LIMIT;
  const cursor = query.starting_after !== undefined ? "starting_after" : "ending_before";
  if (query.starting_after !== undefined && query.ending_before !== undefined) {
    throw invalid("/query/ending_before", "use either starting_after or ending_before, not both");
  }
  if (page > 1 && (query.starting_after !== undefined || query.ending_before !== undefined)) {
    throw invalid(`/query/${cursor}`, "a cursor walks from its record; it cannot be combined with page > 1");
  }
  return {
    page,
    limit,
    offset: (page - 1) * limit,
    startingAfter: query.starting_after,
    endingBefore: query.ending_before,
  };
}

/** How many records a list holds, exact up to the cap; past it, `capped` and `count` is the cap. */
export interface Total {
  count: number;
  capped: boolean;
}

/**
 * Counts the records matching `where`, stopping at `cap + 1`: an exact `count(*)` over a million
 * rows costs more than the page itself, and nobody pages through a thousand records by number.
 */
export async function countUpTo(
  deps: { db: Executor; config: { listCountCap: number } },
  table: PgTable,
  where: SQL | undefined,
): Promise<Total> {
  const cap = deps.config.listCountCap;
  const upTo = deps.db
    .select({ one: sql`1` })
    .from(table)
    .where(where)
    .limit(cap + 1)
    .as("counted");
  const [{ n }] = await deps.db.select({ n: count() }).from(upTo);
  return totalOf(n, cap);
}

/** What a count that stopped at `cap + 1` says. */
export const totalOf = (counted: number, cap: number): Total => ({
  count: Math.min(counted, cap),
  capped: counted > cap,
});

/** Where a page sits among its neighbours, for the `Link` header's cursor links. */
export interface Neighbours {
  /** The id to pass as `starting_after` for the next page, when there is one. */
  next?: string;
  /** The id to pass as `ending_before` for the previous page, when there is one. */
  prev?: string;
}

/** What a service answers for one page of a list. */
export interface ListResult<T> {
  items: T[];
  total: Total;
  neighbours?: Neighbours;
}

/** A table listed by `(created_at, id)`, as every list is. */
export type ListedTable = PgTable & { createdAt: PgColumn; id: PgColumn };

export interface ListSpec {
  table: ListedTable;
  /** The columns the list is ordered by, when not the table's own `createdAt` and `id`. */
  createdAt?: PgColumn;
  id?: PgColumn;
  /** The records a cursor may name (usually the app's): anything else is 400, never a hint it exists. */
  scope: SQL | undefined;
  /** Newest first (most lists) or oldest first (bids). */
  newestFirst: boolean;
}

/** One page's query parts: add `where` to the list's filter, then order, limit and offset as given. */
export interface Window {
  where: SQL | undefined;
  orderBy: SQL[];
  limit: number;
  offset: number;
  /** Puts the fetched rows in list order, drops the look-ahead row and says which cursors follow. */
  finish<R>(rows: R[], idOf: (row: R) => string): { rows: R[]; neighbours: Neighbours };
}

/**
 * The page of a list ordered by `(created_at, id)`, by `page` (OFFSET) or by cursor (keyset: a row
 * comparison the `(scope, created_at, id)` index answers without reading the skipped rows). One row
 * more than the page is fetched to know whether a next page exists.
 */
export async function pageWindow(
  db: Executor,
  page: Page,
  list: ListSpec,
  /** What the statement compares with the cursor's id: its value, or a placeholder for it. */
  cursorParam?: Placeholder,
): Promise<Window> {
  const spec = { ...list, createdAt: list.createdAt ?? list.table.createdAt, id: list.id ?? list.table.id };
  const cursorId = page.startingAfter ?? page.endingBefore;
  const backwards = page.endingBefore !== undefined;
  let where: SQL | undefined;
  if (cursorId !== undefined) {
    const [found] = await db
      .select({ id: spec.id })
      .from(spec.table)
      .where(and(spec.scope, eq(spec.id, cursorId)))
      .limit(1);
    const field = backwards ? "ending_before" : "starting_after";
    if (!found) throw invalid(`/query/${field}`, "no record of this list has this id");
    // The cursor's own (created_at, id) is read inside the statement: a JavaScript Date would drop
    // the microseconds and skip or repeat records created in the same millisecond.
    const mark = sql`(select ${spec.createdAt}, ${spec.id} from ${spec.table} where ${spec.id} = ${cursorParam ?? cursorId})`;
    // Walking towards older records when the list is newest first and we go forwards, and so on.
    const towardsOlder = spec.newestFirst !== backwards;
    where = towardsOlder
      ? sql`(${spec.createdAt}, ${spec.id}) < ${mark}`
      : sql`(${spec.createdAt}, ${spec.id}) > ${mark}`;
  }
  const descending = spec.newestFirst !== backwards;
  const order = descending ? desc : asc;
  return {
    where,
    orderBy: [order(spec.createdAt), order(spec.id)],
    limit: page.limit + 1,
    offset: cursorId === undefined ? page.offset : 0,
    finish(rows, idOf) {
      const more = rows.length > page.limit;
      const kept = rows.slice(0, page.limit);
      if (backwards) kept.reverse();
      const first = kept.at(0);
      const last = kept.at(-1);
      const neighbours: Neighbours = {};
      if (backwards) {
        if (last) neighbours.next = idOf(last);
        if (more && first) neighbours.prev = idOf(first);
      } else {
        if (more && last) neighbours.next = idOf(last);
        if (first && (page.startingAfter !== undefined || page.page > 1)) neighbours.prev = idOf(first);
      }
      return { rows: kept, neighbours };
    },
  };
}

/** What a list reads: its table, what a cursor may name, what it keeps and its order. */
export interface ListOf<T extends ListedTable> {
  table: T;
  /** The records a cursor may name (usually the app's): anything else is 400. */
  scope: SQL | undefined;
  /** What the list keeps, when it has filters of its own; else the scope. */
  filter?: SQL;
  newestFirst: boolean;
}

/**
 * One page of a list read by `query` (a `$dynamic()` select, with its joins and columns), with
 * its total: the query gets the list's filter and the page's window; the count runs on the table.
 */
export async function pageOfSelect<Q extends PgSelect>(
  deps: { db: Executor; config: { listCountCap: number } },
  page: Page,
  list: ListOf<ListedTable>,
  query: Q,
  idOf: (row: Q["_"]["result"][number]) => string,
): Promise<{ rows: Q["_"]["result"]; total: Total; neighbours: Neighbours }> {
  const filter = list.filter ?? list.scope;
  const window = await pageWindow(deps.db, page, list);
  const [fetched, total] = await Promise.all([
    query
      .where(and(filter, window.where))
      .orderBy(...window.orderBy)
      .limit(window.limit)
      .offset(window.offset),
    countUpTo(deps, list.table, filter),
  ]);
  const { rows, neighbours } = window.finish(fetched as Q["_"]["result"], idOf);
  return { rows, total, neighbours };
}

/** One page of a table's own rows, with its total: what most list services read. */
export async function pageOfRows<T extends ListedTable>(
  deps: { db: Executor; config: { listCountCap: number } },
  page: Page,
  list: ListOf<T>,
): Promise<{ rows: T["$inferSelect"][]; total: Total; neighbours: Neighbours }> {
  const query = deps.db
    .select()
    .from(list.table as PgTable)
    .$dynamic();
  const { rows, total, neighbours } = await pageOfSelect(
    deps,
    page,
    list,
    query,
    (r) => (r as { id: string }).id,
  );
  return { rows: rows as T["$inferSelect"][], total, neighbours };
}

export const listHeaders = {
  "x-total-count": Type.Integer({
    description: "Number of records across all pages; past LIST_COUNT_CAP (1,000 by default) it is the cap",
  }),
  "x-total-count-capped": Type.Optional(
    Type.Literal("true", { description: "Present when the list holds more records than X-Total-Count says" }),
  ),
  link: Type.String({
    description: "RFC 8288 links: first, prev, next, last (last omitted when the count is capped)",
  }),
};

/**
 * Sets `X-Total-Count` (plus `X-Total-Count-Capped` past the cap) and RFC 8288 `Link`. By page
 * number: first, prev, next, last. When a cursor is in use, prev and next carry cursors instead.
 */
export function setListHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  page: Page,
  total: Total,
  neighbours: Neighbours = {},
): void {
  const lastPage = Math.max(1, Math.ceil(total.count / page.limit));
  const byCursor = page.startingAfter !== undefined || page.endingBefore !== undefined;
  const base = new URL(request.url, "http://placeholder");
  const link = (rel: string, name: string, value: string) => {
    const url = new URL(base);
    for (const other of ["page", "starting_after", "ending_before"]) {
      if (other !== name) url.searchParams.delete(other);
    }
    url.searchParams.set(name, value);
    url.searchParams.set("limit", String(page.limit));
    return `<${url.pathname}${url.search}>; rel="${rel}"`;
  };
  const links = [link("first", "page", "1")];
  if (byCursor) {
    if (neighbours.prev) links.push(link("prev", "ending_before", neighbours.prev));
    if (neighbours.next) links.push(link("next", "starting_after", neighbours.next));
  } else {
    if (page.page > 1) links.push(link("prev", "page", String(Math.min(page.page - 1, lastPage))));
    if (total.capped ? neighbours.next !== undefined : page.page < lastPage) {
      links.push(link("next", "page", String(page.page + 1)));
    }
  }
  if (!total.capped) links.push(link("last", "page", String(lastPage)));
  reply.header("x-total-count", String(total.count));
  if (total.capped) reply.header("x-total-count-capped", "true");
  reply.header("link", links.join(", "));
}

/** The OpenAPI entry of a list answer: a bare array with the paging headers. */
export function listResponse(items: TSchema, description: string) {
  return { description, headers: listHeaders, ...Type.Array(items) };
}
