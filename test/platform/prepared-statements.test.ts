import assert from "node:assert/strict";
import { test } from "node:test";
import { PreparingClient } from "../../src/platform/db/index.ts";
import { named, repeatedName } from "../../src/platform/db/statement-names.ts";
import { onPostgres } from "../helpers/app.ts";
import { useTestApp } from "../helpers/fixture.ts";

// Statements sent twice are prepared on PostgreSQL (docs/decisions.md, "Every statement sent twice
// is prepared"): the names, and what a connection of the service's pool keeps prepared.

const fx = useTestApp();
const skip = onPostgres
  ? false
  : "PostgreSQL only: the embedded engine keeps every statement prepared itself";

test("a text is named from its second sighting on, with the text first seen; another text of its length apart", () => {
  const text = `select $1::text as a_${process.pid}_${Date.now()}`;
  assert.equal(repeatedName(text), undefined, "a text seen once is not named");
  const again = repeatedName(`${text}`);
  assert.ok(again, "the second sighting names it");
  assert.match(again.name, /^s_[\w-]{22}$/);
  assert.equal(repeatedName(text)?.name, again.name, "and it keeps its name");
  const other = text.replace("a_", "b_");
  assert.equal(other.length, text.length);
  assert.equal(repeatedName(other), undefined);
  assert.notEqual(repeatedName(other)?.name, again.name);
  assert.equal(named(text).name, again.name, "a statement named by its caller shares the name");
});

test("the service's pool prepares a statement with parameters on its second run, and nothing else", {
  skip,
}, async () => {
  const pool = fx.t.deps.database.pool!;
  const client = await pool.connect();
  try {
    assert.ok(client instanceof PreparingClient, "the pool's connections are preparing clients");
    const marker = `m${process.pid}_${Date.now()}`;
    const withValues = `select $1::text as ${marker}`;
    const prepared = async () =>
      (
        await client.query<{ statement: string }>(
          "select statement from pg_prepared_statements where statement like '%' || $1::text || '%' and statement not like '%pg_prepared_statements%'",
          [marker],
        )
      ).rows.map((row) => row.statement);
    assert.equal((await client.query(withValues, ["one"])).rows[0][marker], "one");
    assert.deepEqual(await prepared(), [], "not after one run");
    assert.equal((await client.query(withValues, ["two"])).rows[0][marker], "two");
    assert.deepEqual(await prepared(), [withValues], "prepared on the second");
    assert.equal((await client.query({ text: withValues, values: ["three"] })).rows[0][marker], "three");

    // Without parameters (the simple protocol, which may carry several commands), and a statement
    // asked for unnamed, never.
    const plain = `select 1 as ${marker}_plain; select 2 as ${marker}_plain`;
    await client.query(plain);
    await client.query(plain);
    const unnamed = `select $1::int as ${marker}_unnamed`;
    for (const value of [1, 2, 3]) await client.query({ text: unnamed, values: [value], name: "" });
    assert.deepEqual(await prepared(), [withValues]);
  } finally {
    client.release();
  }
});
