import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { PgDialect } from "drizzle-orm/pg-core";
import {
  fillRow,
  insertRow,
  type Runner,
  rowKeys,
  rowTemplate,
  statementRunner,
  withValues,
  writeIf,
} from "../../src/platform/db/index.ts";
import { jobOutbox } from "../../src/platform/jobs/outbox-table.ts";

// The runner compiles statements itself, for speed (src/platform/db/statements.ts, `Compilation`):
// what it sends must be exactly what Drizzle's own compiler makes of the same statement, values
// passed as text.

const dialect = new PgDialect();
const db = drizzle.mock();

/** A runner on an engine that keeps what it is sent instead of running it. */
function capturing(): { run: Runner; sent: { text: string; values: unknown[] }[] } {
  const sent: { text: string; values: unknown[] }[] = [];
  const pglite = {
    query: async (text: string, values: unknown[]) => {
      sent.push({ text, values });
      return { rows: [] };
    },
  };
  return { run: statementRunner({ engine: "pglite", pool: undefined, pglite } as never), sent };
}

/** What Drizzle's compiler makes of `statement`, its values as the runner passes them. */
function drizzleText(statement: SQL) {
  const query = dialect.sqlToQuery(statement);
  const asText = (value: unknown) =>
    value == null
      ? null
      : typeof value === "string"
        ? value
        : value instanceof Date
          ? value.toISOString()
          : typeof value === "object"
            ? JSON.stringify(value)
            : String(value);
  return { text: query.sql, values: query.params.map(asText) };
}

async function sendsWhatDrizzleMakes(statement: SQL) {
  const { run, sent } = capturing();
  await run(statement);
  assert.deepEqual(sent[0], drizzleText(statement));
}

const since = new Date("2030-01-02T03:04:05.000Z");
const outboxQuery = db
  .select({ id: jobOutbox.id, name: jobOutbox.name, late: sql<boolean>`${jobOutbox.createdAt} > ${since}` })
  .from(jobOutbox)
  .where(and(eq(jobOutbox.name, "a"), inArray(jobOutbox.name, ["b", "c"]), eq(jobOutbox.createdAt, since)));

describe("statementRunner", () => {
  test("sends a statement of text, tables, columns, names, lists and a select as Drizzle's compiler makes it", async () => {
    await sendsWhatDrizzleMakes(
      sql`select ${sql.identifier("x")}, ${jobOutbox.name} from ${jobOutbox} where ${jobOutbox.id} in ${[1, 2]}
        and exists ${outboxQuery} and ${null}::text is null and ${{ a: [1] }}::jsonb is not null`,
    );
  });

  test("sends rows and a guarded write as Drizzle's compiler makes them", async () => {
    const row = { name: "job", data: { paymentId: "pay_1", list: [1, 2] }, createdAt: since };
    await sendsWhatDrizzleMakes(insertRow(jobOutbox, row));
    await sendsWhatDrizzleMakes(
      writeIf({
        first: { found: sql`select ${jobOutbox.id} from ${jobOutbox} where ${jobOutbox.name} = ${"job"}` },
        condition: sql`not exists (select 1 from found)`,
        writes: (when) => [
          insertRow(jobOutbox, row, when),
          insertRow(jobOutbox, { ...row, name: "other" }, when),
        ],
        answer: sql`holds, (select count(*) from found) as found`,
      }),
    );
  });

  test("sends a template with its values as Drizzle's compiler makes the same statement with values", async () => {
    const template = sql`select 1 from ${jobOutbox} where ${jobOutbox.name} = ${sql.placeholder("name")}
      and exists ${db
        .select({ id: jobOutbox.id })
        .from(jobOutbox)
        .where(eq(jobOutbox.data, sql.placeholder("data")))}`;
    const filled = withValues(template, { name: "job", data: "{}" });
    const { run, sent } = capturing();
    await run(sql`select ${"before"}::text, (${filled})`);
    await run(sql`select ${"before"}::text, (${filled})`);
    const direct = sql`select ${"before"}::text, (select 1 from ${jobOutbox} where ${jobOutbox.name} = ${"job"}
      and exists ${db
        .select({ id: jobOutbox.id })
        .from(jobOutbox)
        .where(eq(jobOutbox.data, sql`${"{}"}`))})`;
    assert.deepEqual(sent[0], drizzleText(direct));
    assert.deepEqual(sent[1], sent[0], "the template's second use is the same");
    // Drizzle's compiler reads the filled template the same way.
    assert.deepEqual(drizzleText(sql`select ${"before"}::text, (${filled})`), sent[0]);
  });

  test("a guarded write of row templates, filled in, is the statement built with the rows' values", async () => {
    const row = { name: "job", data: { paymentId: "pay_1", list: [1, 2] }, createdAt: since };
    const guarded = (rows: (typeof row)[]) =>
      writeIf({
        condition: sql`true`,
        writes: (when) => rows.map((each) => insertRow(jobOutbox, each, when)),
        answer: sql`holds`,
      });
    const first = rowTemplate(jobOutbox, "first", rowKeys(row));
    const second = rowTemplate(jobOutbox, "second", rowKeys(row));
    const template = guarded([first.placeholders, second.placeholders] as (typeof row)[]);
    const other = { ...row, name: "other", createdAt: new Date("2031-05-06T07:08:09.000Z") };
    const { run, sent } = capturing();
    for (const rows of [
      [row, other],
      [other, row],
    ]) {
      const values: Record<string, unknown> = {};
      fillRow(first, rows[0], values);
      fillRow(second, rows[1], values);
      // A whole statement: its text is the one made once (the same string every time).
      await run(withValues(template, values));
    }
    assert.deepEqual(sent[0], drizzleText(guarded([row, other])));
    assert.deepEqual(sent[1], drizzleText(guarded([other, row])));
    assert.equal(sent[0].text, sent[1].text);
  });

  test("a row with a key more or less than its template's is refused, never written short", () => {
    const keys = ["name", "data"];
    const template = rowTemplate(jobOutbox, "job", keys);
    // Asked again with the same list of keys, the same template: made once.
    assert.equal(rowTemplate(jobOutbox, "job", keys), template);
    assert.throws(
      () => fillRow(template, { name: "job", data: {}, createdAt: since }, {}),
      /differs from its template/,
    );
    assert.throws(() => fillRow(template, { name: "job" } as never, {}), /differs from its template/);
    assert.throws(() => fillRow(template, { name: "job", createdAt: since } as never, {}), /lacks data/);
    assert.throws(() => rowTemplate(jobOutbox, "job", ["name", "nope"]), /has no column nope/);
  });

  test("a template refuses values, and a placeholder without a value is refused", async () => {
    assert.throws(() => withValues(sql`select ${"value"}`, {}), /placeholders only/);
    const { run } = capturing();
    await assert.rejects(run(sql`select ${sql.placeholder("id")}`), /placeholder id has no value/);
  });

  test("leaves what only Drizzle compiles (a subquery under an alias) to Drizzle's compiler", async () => {
    const named = db.select({ id: jobOutbox.id }).from(jobOutbox).as("named");
    await sendsWhatDrizzleMakes(sql`select * from ${named} where ${"x"} = ${"y"}`);
  });

  test("on PostgreSQL a statement keeps one name per text: the same text its name, another of the same length its own", async () => {
    const sent: { name: string; text: string }[] = [];
    const pool = {
      query: async (query: { name: string; text: string }) => {
        sent.push(query);
        return { rows: [] };
      },
    };
    const run = statementRunner({ engine: "postgres", pool, pglite: undefined } as never);
    const table = (name: string) => sql`select 1 from ${sql.identifier(name)} where ${"x"} = ${"y"}`;
    await run(table("aaaa"));
    await run(table("bbbb"));
    await run(table("aaaa"));
    const [first, other, again] = sent;
    assert.equal(first.text.length, other.text.length);
    assert.notEqual(first.name, other.name);
    assert.equal(again.name, first.name);
    assert.equal(again.text, first.text);
    assert.match(other.text, /"bbbb"/);
  });
});
