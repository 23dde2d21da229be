import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { PGlite } from "@electric-sql/pglite";
import {
  STATEMENT_CACHE_SIZE,
  StatementCachingPGlite,
} from "../../src/platform/db/shims/pglite-prepared-shim.ts";

// The embedded engine keeps every statement prepared. What it answers must be exactly what PGlite's
// own query answers, errors and transactions included.

// The version and the PGlite internals it relies on are checked by test/platform/db-shims.test.ts.

let plain: PGlite;
let cached: StatementCachingPGlite;
const schema = `create table t (id text primary key, amount bigint, body jsonb, at timestamptz, tags text[],
  ok boolean, price numeric(10, 2));`;

before(async () => {
  plain = new PGlite();
  cached = new StatementCachingPGlite();
  for (const db of [plain, cached]) await db.exec(schema);
});
after(async () => {
  await plain.close();
  await cached.close();
});

const prepared = async (db: PGlite) =>
  (await db.query<{ n: number }>("select count(*)::int as n from pg_prepared_statements")).rows[0].n;

test("answers as PGlite does: rows, types, fields, row mode and counts", async () => {
  const insert = "insert into t (id, amount, body, at, tags, ok, price) values ($1, $2, $3, $4, $5, $6, $7)";
  const values = (i: number) => [
    `k${i}`,
    10n ** 15n + BigInt(i),
    { n: i, nested: ["a", null] },
    new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
    ["x", `y${i}`],
    i % 2 === 0,
    "12.50",
  ];
  for (const db of [plain, cached]) {
    for (let i = 0; i < 3; i++) await db.query(insert, values(i));
    await db.query(insert, ["knull", null, null, null, null, null, null]);
  }
  const queries: [string, unknown[], object?][] = [
    ["select * from t order by id", []],
    ["select * from t where id = $1", ["k1"]],
    ["select * from t where id = $1", ["k2"], { rowMode: "array" }],
    ["select id, amount + $1 as more from t where amount is not null order by id", [5n]],
    ["update t set ok = not ok where id <> $1", ["k0"]],
    ["delete from t where id = $1 returning id", ["knull"]],
    ["select id from t where id = $1", ["missing"]],
  ];
  for (const [text, params, options] of queries) {
    for (let round = 0; round < 2; round++) {
      const expected = await plain.query(text, params, options);
      const actual = await cached.query(text, params, options);
      assert.deepEqual(actual.rows, expected.rows, text);
      assert.deepEqual(actual.affectedRows, expected.affectedRows, text);
      assert.deepEqual(
        actual.fields.map((f) => [f.name, f.dataTypeID]),
        expected.fields.map((f) => [f.name, f.dataTypeID]),
        text,
      );
    }
  }
  assert.equal(await prepared(plain), 0);
  assert.ok((await prepared(cached)) >= queries.length, "each statement stays prepared");
});

test("a failing statement answers PGlite's error and leaves the connection usable", async () => {
  for (const db of [plain, cached]) {
    await assert.rejects(
      db.query("select nope from t"),
      (error: Error & { code?: string; query?: string }) => {
        assert.equal(error.code, "42703");
        assert.equal(error.query, "select nope from t");
        return true;
      },
    );
    await assert.rejects(db.query("insert into t (id) values ($1)", ["k0"]), { code: "23505" });
    await assert.rejects(db.query("insert into t (id) values ($1)", ["k0"]), { code: "23505" });
    assert.equal((await db.query<{ id: string }>("select id from t where id = $1", ["k0"])).rows[0].id, "k0");
  }
});

test("transactions: a statement inside sees the transaction, an error rolls it back, others wait", async () => {
  for (const db of [plain, cached]) {
    const count = async () => (await db.query<{ n: number }>("select count(*)::int as n from t")).rows[0].n;
    const before = await count();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const transaction = db.transaction(async (tx) => {
      await tx.query("insert into t (id) values ($1)", ["tx1"]);
      assert.equal((await tx.query<{ n: number }>("select count(*)::int as n from t")).rows[0].n, before + 1);
      await held;
    });
    // A query outside waits for the transaction, then sees its row.
    let answered = false;
    const outside = count().finally(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(answered, false, "a query outside ran inside an open transaction");
    release();
    await transaction;
    assert.equal(await outside, before + 1);
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query("insert into t (id) values ($1)", ["tx2"]);
        await tx.query("insert into t (id) values ($1)", ["tx1"]);
      }),
      { code: "23505" },
    );
    assert.equal(await count(), before + 1, "the failed transaction left nothing");
    await db.query("delete from t where id = $1", ["tx1"]);
  }
});

test("beyond the cache size the least recently used statement is closed, and runs again when asked", async () => {
  const first = "select 0 as n, $1::text as x";
  await cached.query(first, ["a"]);
  for (let i = 1; i <= STATEMENT_CACHE_SIZE + 20; i++)
    await cached.query(`select ${i} as n, $1::text as x`, ["a"]);
  assert.ok((await prepared(cached)) <= STATEMENT_CACHE_SIZE);
  assert.deepEqual((await cached.query(first, ["b"])).rows, [{ n: 0, x: "b" }]);
});

test("a table changed under a stored `select *` is parsed again", async () => {
  await cached.exec("create table s (id text primary key)");
  await cached.query("insert into s values ($1)", ["a"]);
  assert.deepEqual((await cached.query("select * from s where id = $1", ["a"])).rows, [{ id: "a" }]);
  await cached.exec("alter table s add column extra int default 7");
  assert.deepEqual((await cached.query("select * from s where id = $1", ["a"])).rows, [
    { id: "a", extra: 7 },
  ]);
});

test("a statement sent on the database from inside its open transaction fails, naming the mistake, and the transaction rolls back", async () => {
  cached.selfWaitMs = 200;
  try {
    await assert.rejects(
      cached.transaction(async (tx) => {
        await tx.query("insert into t (id) values ('self-wait')");
        // The mistake: `cached`, not `tx`. On one connection this waits for the transaction forever.
        await cached.query("select 1");
      }),
      /waited 200 ms for the open transaction that sent it: use its tx/,
    );
    assert.equal((await cached.query("select id from t where id = 'self-wait'")).rows.length, 0);
    // Work started inside the transaction but not awaited by it runs once the transaction ends.
    let later: Promise<unknown> | undefined;
    await cached.transaction(async (tx) => {
      later = cached.query("select count(*) from t");
      await tx.query("select 1");
    });
    assert.equal((await later) !== undefined, true);
  } finally {
    cached.selfWaitMs = 10_000;
  }
});
