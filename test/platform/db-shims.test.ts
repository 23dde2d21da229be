import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { after, test } from "node:test";
import { PGlite, parse, protocol } from "@electric-sql/pglite";
import { Column, eq, Name, Param, SQL, StringChunk, sql } from "drizzle-orm";
import { bigint, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/pglite";
import * as drizzleUtils from "drizzle-orm/utils";
import { PINNED_VERSION as DRIZZLE_PINNED } from "../../src/platform/db/shims/drizzle-compile-shim.ts";
import {
  PINNED_VERSION as MAPPER_PINNED,
  rowMapper,
  withRowMapper,
} from "../../src/platform/db/shims/drizzle-row-mapper-shim.ts";
import {
  installPgResultShim,
  PINNED_VERSION as PG_RESULT_PINNED,
  uninstallPgResultShim,
} from "../../src/platform/db/shims/pg-result-shim.ts";
import { PINNED_VERSION as PGLITE_PINNED } from "../../src/platform/db/shims/pglite-prepared-shim.ts";
import { fingerprint, rowDescription } from "../helpers/shims.ts";

// The performance shims under src/platform/db/shims/ lean on their library's internals. An
// upgrade must fail here, naming the shim and what to do, and not deep inside a query: each file's
// first comment says what it relies on, what it was measured to save, and the steps on upgrade.

const DRIZZLE_SHIM = "src/platform/db/shims/drizzle-compile-shim.ts";
const PGLITE_SHIM = "src/platform/db/shims/pglite-prepared-shim.ts";
const MAPPER_SHIM = "src/platform/db/shims/drizzle-row-mapper-shim.ts";
const PG_RESULT_SHIM = "src/platform/db/shims/pg-result-shim.ts";

const installed = (name: string): string =>
  JSON.parse(readFileSync(`node_modules/${name}/package.json`, "utf8")).version;

const upgraded = (shim: string, name: string, pinned: string, found: string) =>
  `PERFORMANCE SHIM ${shim} was written against ${name} ${pinned}, and ${found} is installed: ` +
  `follow "On upgrade" at the top of ${shim} (re-check its internals, run its tests, drop it if ` +
  "the benchmark says it no longer pays), then move its PINNED_VERSION";

test("the Drizzle compiler shim is on the Drizzle version it was measured on", () => {
  const found = installed("drizzle-orm");
  assert.equal(found, DRIZZLE_PINNED, upgraded(DRIZZLE_SHIM, "drizzle-orm", DRIZZLE_PINNED, found));
});

test("the Drizzle internals the compiler shim reads are there, with the shape it expects", () => {
  const broken = (what: string) => `${DRIZZLE_SHIM}: ${what} (drizzle-orm ${installed("drizzle-orm")})`;
  assert.deepEqual(
    new StringChunk("a").value,
    ["a"],
    broken("StringChunk.value is no longer an array of text"),
  );
  assert.equal(new Name("n").value, "n", broken("Name.value is no longer the name"));
  const param = new Param(5);
  assert.equal(param.value, 5, broken("Param.value is no longer the value"));
  assert.equal(param.encoder.mapToDriverValue(5), 5, broken("Param.encoder no longer maps to the driver"));
  assert.equal(sql.placeholder("p").name, "p", broken("Placeholder.name is no longer its name"));
  const inline = (statement: SQL) =>
    (statement as unknown as { shouldInlineParams: unknown }).shouldInlineParams;
  assert.equal(inline(sql`a`), false, broken("SQL has no private shouldInlineParams = false"));
  assert.equal(
    inline(sql`a`.inlineParams()),
    true,
    broken("inlineParams() no longer sets shouldInlineParams"),
  );
  assert.ok(Array.isArray(sql`a ${1}`.queryChunks), broken("SQL.queryChunks is no longer an array"));
  assert.equal(typeof SQL.Aliased, "function", broken("SQL.Aliased is gone"));
  const value = { any: "value" };
  assert.equal(
    Column.prototype.mapToDriverValue(value),
    value,
    broken("Column's base mapToDriverValue is no longer the identity (driverConversion skips it)"),
  );
  // The method `Compilation.write` copies: a new digest means Drizzle's compiler changed, so the
  // copy must be compared with it again (test/platform/statements.test.ts holds them to one text).
  assert.equal(
    fingerprint(SQL.prototype.buildQueryFromSourceParams),
    "08a1ecf9a1381d2d",
    broken("SQL.buildQueryFromSourceParams, the compiler the shim copies, changed"),
  );
});

test("the PGlite prepared-statement shim is on the PGlite version it was measured on, pinned exactly", () => {
  const found = installed("@electric-sql/pglite");
  assert.equal(found, PGLITE_PINNED, upgraded(PGLITE_SHIM, "@electric-sql/pglite", PGLITE_PINNED, found));
  const manifest = JSON.parse(readFileSync("package.json", "utf8"));
  assert.equal(
    manifest.dependencies["@electric-sql/pglite"],
    PGLITE_PINNED,
    `package.json must pin @electric-sql/pglite to exactly ${PGLITE_PINNED}: ${PGLITE_SHIM} uses its internals`,
  );
});

test("the PGlite internals the prepared-statement shim calls are there, with the shape it expects", async () => {
  const broken = (what: string) =>
    `${PGLITE_SHIM}: ${what} (@electric-sql/pglite ${installed("@electric-sql/pglite")})`;
  const methods = PGlite.prototype as unknown as Record<string, unknown>;
  for (const method of [
    "_checkReady",
    "_runExclusiveTransaction",
    "_runExclusiveQuery",
    "execProtocolStream",
    "syncToFs",
    "query",
    "transaction",
  ])
    assert.equal(typeof methods[method], "function", broken(`PGlite has no method ${method}`));
  for (const message of ["parse", "describe", "bind", "execute", "sync", "close"])
    assert.equal(
      typeof (protocol.serialize as unknown as Record<string, unknown>)[message],
      "function",
      broken(`protocol.serialize has no ${message}`),
    );
  for (const reader of ["parseDescribeStatementResults", "parseResults"])
    assert.equal(
      typeof (parse as unknown as Record<string, unknown>)[reader],
      "function",
      broken(`parse has no ${reader}`),
    );
  // The shim takes PGlite's two locks as PGlite's own query and transaction do: a new digest of
  // either means their locking or syncing may have changed, and the shim must follow it.
  const base = Object.getPrototypeOf(PGlite.prototype) as Record<string, unknown>;
  assert.equal(fingerprint(base.query), "6bb950957b10f961", broken("PGlite's own query changed"));
  assert.equal(fingerprint(base.transaction), "bea3de1cd491bbc9", broken("PGlite's own transaction changed"));
  const db = new PGlite();
  try {
    await db.waitReady;
    for (const table of ["serializers", "parsers"])
      assert.equal(
        typeof (db as unknown as Record<string, unknown>)[table],
        "object",
        broken(`a PGlite has no ${table} by type`),
      );
  } finally {
    await db.close();
  }
});

// Drizzle's own row mapper, which its typings do not declare.
const { mapResultRow } = drizzleUtils as unknown as { mapResultRow: unknown };

test("the row mapper shim is on the Drizzle version it was measured on, and Drizzle's mapper is the one it copies", () => {
  const found = installed("drizzle-orm");
  assert.equal(found, MAPPER_PINNED, upgraded(MAPPER_SHIM, "drizzle-orm", MAPPER_PINNED, found));
  const value = { any: "value" };
  assert.equal(
    Column.prototype.mapFromDriverValue(value),
    value,
    `${MAPPER_SHIM}: Column's base mapFromDriverValue is no longer the identity (the mapper skips it)`,
  );
  // A new digest means Drizzle's `mapResultRow` changed: compare the shim's `rowMapper` with it again.
  assert.equal(
    fingerprint(mapResultRow),
    "478be6e257bcc333",
    `${MAPPER_SHIM}: Drizzle's mapResultRow, which the shim copies, changed (drizzle-orm ${found})`,
  );
});

test("the row mapper shim maps a joined select's rows as Drizzle does: nested objects, decoders, a missing join as null", async () => {
  const owners = pgTable("owners", {
    id: text("id").primaryKey(),
    born: timestamp("born", { withTimezone: true, mode: "date" }).notNull(),
    settings: jsonb("settings").$type<{ tier: string }>(),
  });
  const items = pgTable("items", {
    id: text("id").primaryKey(),
    ownerId: text("owner_id").notNull(),
    amount: bigint("amount", { mode: "bigint" }).notNull(),
    count: integer("count"),
  });
  const client = new PGlite();
  try {
    const db = drizzle(client);
    await client.exec(`create table owners (id text primary key, born timestamptz not null, settings jsonb);
      create table items (id text primary key, owner_id text not null, amount bigint not null, count integer);
      insert into owners values ('o1', '2026-11-29T06:00:00Z', '{"tier":"gold"}'), ('o2', '2026-01-01T00:00:00Z', null);
      insert into items values ('i1', 'o1', 9007199254740993, null), ('i2', 'o1', 5, 3);`);
    const select = (name: string) =>
      db
        .select({
          owner: owners,
          item: items,
          itemCount: sql<number>`(select count(*) from items where owner_id = ${owners.id})`.mapWith(Number),
          nested: { id: owners.id, label: sql<string>`upper(${owners.id})` },
        })
        .from(owners)
        .leftJoin(items, eq(items.ownerId, owners.id))
        .orderBy(owners.id, items.id)
        .prepare(name);
    const drizzles = await select("rows_by_drizzle").execute();
    const mapped = withRowMapper(select("rows_by_shim"));
    assert.equal(
      typeof (mapped as unknown as { customResultMapper: unknown }).customResultMapper,
      "function",
    );
    const shims = await mapped.execute();
    assert.equal(drizzles.length, 3);
    assert.equal(drizzles[2].item, null, "the owner without items has a null item");
    assert.deepEqual(shims, drizzles);
    assert.equal(shims[0].item?.amount, 9007199254740993n, "bigint decoded");
    assert.ok(shims[0].owner.born instanceof Date, "timestamp decoded");
    // A path that is both a value and an object is no literal: such a selection keeps Drizzle's mapper.
    const id = owners.id;
    assert.equal(
      rowMapper(
        [
          { path: ["a"], field: id },
          { path: ["a", "b"], field: id },
        ],
        undefined,
      ),
      undefined,
    );
    assert.equal(
      rowMapper(
        [
          { path: ["a", "b"], field: id },
          { path: ["a"], field: id },
        ],
        undefined,
      ),
      undefined,
    );
  } finally {
    await client.close();
  }
});

// pg's Result class, whose `addFields` the pg result shim replaces. The file shares its process
// with others (npm test's lanes), so the method is put back as it was found.
interface PgResult {
  addFields(fields: object[]): void;
  parseRow(row: (string | null)[]): unknown;
  _prebuiltEmptyResultObject: object | null;
}
const PgResult = createRequire(createRequire(import.meta.url).resolve("pg"))("./result.js") as {
  new (rowMode?: string): PgResult;
  prototype: Record<string, unknown>;
};
const foundAddFields = PgResult.prototype.addFields;
after(() => {
  PgResult.prototype.addFields = foundAddFields;
});

test("the pg result shim is on the pg version it was measured on, over the Result it replaces a method of", () => {
  const found = installed("pg");
  assert.equal(found, PG_RESULT_PINNED, upgraded(PG_RESULT_SHIM, "pg", PG_RESULT_PINNED, found));
  const broken = (what: string) => `${PG_RESULT_SHIM}: ${what} (pg ${found})`;
  uninstallPgResultShim();
  try {
    // A new digest means pg reads a row description or an array row differently: compare again.
    assert.equal(
      fingerprint(PgResult.prototype.addFields),
      "b85c0e5db5c85c53",
      broken("pg's Result.addFields changed"),
    );
    assert.equal(
      fingerprint(PgResult.prototype._parseRowAsArray),
      "23ba8f7ad221cf53",
      broken("pg's Result._parseRowAsArray changed"),
    );
  } finally {
    installPgResultShim();
  }
});

test("rows read with the pg result shim are pg's own, as arrays and as objects; array rows skip the row object", () => {
  // A row description as pg's protocol parser makes it, one column of each kind the service reads.
  const fields = rowDescription([
    ["id", 25],
    ["amount", 20],
    ["quantity", 23],
    ["paid", 16],
    ["created_at", 1184],
    ["metadata", 3802],
    ["tags", 1009],
    ["nothing", 25],
  ]);
  const raw = ["pay_1", "1999", "3", "t", "2026-11-29 12:00:00+00", '{"a":1}', "{x,y}", null];
  const read = (rowMode: string | undefined) => {
    const result = new PgResult(rowMode);
    result.addFields(fields);
    return { row: result.parseRow(raw), prebuilt: result._prebuiltEmptyResultObject };
  };
  uninstallPgResultShim();
  const before = { array: read("array"), object: read(undefined) };
  installPgResultShim();
  const after = { array: read("array"), object: read(undefined) };
  assert.deepEqual(after.array.row, before.array.row);
  assert.deepEqual(after.object.row, before.object.row);
  assert.deepEqual(
    after.object.prebuilt,
    before.object.prebuilt,
    "rows as objects still go through pg's own",
  );
  assert.ok(
    before.array.prebuilt,
    "pg builds the row object for array rows too (else the shim has no reason)",
  );
  assert.equal(after.array.prebuilt, null, "the shim builds no row object for array rows");
});
