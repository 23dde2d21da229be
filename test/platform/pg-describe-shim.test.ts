import assert from "node:assert/strict";
import { after, test } from "node:test";
import {
  installPgDescribeShim,
  PINNED_VERSION,
  uninstallPgDescribeShim,
} from "../../src/platform/db/shims/pg-describe-shim.ts";
import { assertPgPinned, fingerprint, requireFromPg, rowDescription } from "../helpers/shims.ts";

// src/platform/db/shims/pg-describe-shim.ts replaces methods of pg's Query: its version is the one
// it was written against, and a named statement's runs on one connection send what it says, with
// the rows read as pg reads them. The connection is first a recorder (no server): the messages a
// query sends, and PostgreSQL's answers handed to the query as pg's client hands them over; then,
// on PostgreSQL, a real one, whose server refuses a run once the statement's columns change.

const SHIM = "src/platform/db/shims/pg-describe-shim.ts";
interface Query {
  submit(connection: object): Error | null;
  handleRowDescription(message: { fields: object[] }): void;
  handleDataRow(message: { fields: (string | null)[] }): void;
  handleCommandComplete(message: { text: string }, connection: object): void;
  handleError(error: Error, connection: object): void;
  handleReadyForQuery(connection: object): void;
}
const Query = requireFromPg("./query.js") as {
  new (config: object, values?: unknown[], callback?: (error: Error | null, result: any) => void): Query;
  prototype: Record<string, unknown>;
};
const found = { ...Query.prototype };
const methods = ["prepare", "handleRowDescription", "handleCommandComplete", "handleError"] as const;
// The file shares its process with others (npm test's lanes): the methods go back as they were.
after(() => Object.assign(Query.prototype, found));

test("the pg describe shim is on the pg version it was written against, over the Query methods it wraps", () => {
  assertPgPinned(SHIM, PINNED_VERSION);
  uninstallPgDescribeShim();
  try {
    // A new digest means pg sends or reads a prepared statement's run differently: compare again.
    assert.deepEqual(Object.fromEntries(methods.map((name) => [name, fingerprint(Query.prototype[name])])), {
      prepare: "37a5d2a4f601ba28",
      handleRowDescription: "67ca41be03404f55",
      handleCommandComplete: "bf6d69ad2644fcd5",
      handleError: "a5e58644becfe019",
    });
  } finally {
    installPgDescribeShim();
  }
});

/** A connection that records what is sent on it, with pg's bookkeeping of parsed statements. */
function recorder() {
  const sent: string[] = [];
  const record = (kind: string) => (message?: { name?: string; statement?: string; type?: string }) =>
    sent.push((message?.statement ?? message?.name) ? `${kind} ${message.statement ?? message.name}` : kind);
  return {
    sent,
    parsedStatements: {} as Record<string, string>,
    submittedNamedStatements: {} as Record<string, string>,
    stream: { cork() {}, uncork() {} },
    parse: record("parse"),
    bind: record("bind"),
    describe: () => sent.push("describe"),
    execute: () => sent.push("execute"),
    sync: () => sent.push("sync"),
    flush: () => sent.push("flush"),
    close: record("close"),
  };
}

// A row description as pg-protocol hands it over: an id, an int4 amount and a timestamp.
const fields = rowDescription([
  ["id", 25],
  ["amount", 23],
  ["created_at", 1184],
]);
const TEXT = "select id, amount, created_at from payments where id = $1";
const ROW = ["pay_1", "1250", "2026-11-30 12:00:00+00"];

/**
 * One run of the statement named `name` on `connection`, PostgreSQL answering with one row (and the
 * row description when it was asked for); answers what was sent and what the caller got.
 */
async function run(connection: ReturnType<typeof recorder>, name = "payment_by_id", rowMode?: string) {
  const from = connection.sent.length;
  const answered = new Promise<{ rows: unknown[]; fields: unknown[] }>((resolve, reject) => {
    const query = new Query({ name, text: TEXT, values: ["pay_1"], rowMode }, undefined, (error, result) =>
      error ? reject(error) : resolve(result),
    );
    assert.equal(query.submit(connection), null);
    const sent = connection.sent.slice(from);
    if (sent.includes(`parse ${name}`)) connection.parsedStatements[name] = TEXT;
    if (sent.includes("describe")) query.handleRowDescription({ fields });
    query.handleDataRow({ fields: ROW });
    query.handleCommandComplete({ text: "SELECT 1" }, connection);
    query.handleReadyForQuery(connection);
  });
  const result = await answered;
  return { sent: connection.sent.slice(from), rows: result.rows, fields: result.fields };
}

test("a named statement is described on its first run on a connection only, its rows read as pg reads them", async () => {
  installPgDescribeShim();
  const connection = recorder();
  const first = await run(connection);
  assert.deepEqual(first.sent, ["parse payment_by_id", "bind payment_by_id", "describe", "execute", "sync"]);
  const second = await run(connection);
  assert.deepEqual(second.sent, ["bind payment_by_id", "execute", "sync"], "no Describe on a later run");
  assert.deepEqual(second.fields, first.fields);
  assert.deepEqual(second.rows, first.rows);
  assert.deepEqual(await run(connection, "payment_by_id", "array").then((r) => r.rows), [
    ["pay_1", 1250, new Date("2026-11-30T12:00:00Z")],
  ]);
  // Another connection knows nothing of this one's statements.
  assert.deepEqual((await run(recorder())).sent, [
    "parse payment_by_id",
    "bind payment_by_id",
    "describe",
    "execute",
    "sync",
  ]);

  uninstallPgDescribeShim();
  try {
    const own = await run(recorder());
    const again = await run(connection);
    assert.deepEqual(
      again.sent,
      ["bind payment_by_id", "describe", "execute", "sync"],
      "pg describes each run",
    );
    assert.deepEqual(second.rows, own.rows, "the shim's rows are pg's own");
  } finally {
    installPgDescribeShim();
  }
});

test("a statement without rows is remembered as such, and a failed run is described again", async () => {
  installPgDescribeShim();
  const connection = recorder();
  const insert = (fail: boolean) =>
    new Promise<string[]>((resolve) => {
      const from = connection.sent.length;
      const query = new Query(
        { name: "insert_event", text: "insert into e values ($1)", values: [1] },
        undefined,
        () => resolve(connection.sent.slice(from)),
      );
      query.submit(connection);
      connection.parsedStatements.insert_event = "insert into e values ($1)";
      if (fail) query.handleError(new Error("duplicate key value"), connection);
      else {
        query.handleCommandComplete({ text: "INSERT 0 1" }, connection);
        query.handleReadyForQuery(connection);
      }
    });
  assert.deepEqual(await insert(false), [
    "parse insert_event",
    "bind insert_event",
    "describe",
    "execute",
    "sync",
  ]);
  assert.deepEqual(await insert(true), ["bind insert_event", "execute", "sync"]);
  assert.deepEqual(
    await insert(false),
    ["bind insert_event", "describe", "execute", "sync"],
    "asked again after a failure",
  );
  assert.deepEqual(await insert(false), ["bind insert_event", "execute", "sync"]);
});

test("on PostgreSQL, a later run sends no Describe and reads the same rows, and a statement whose columns change fails rather than misreads", {
  skip: !process.env.DATABASE_URL && "needs PostgreSQL: the shim is pg's, PGlite does not use it",
}, async () => {
  installPgDescribeShim();
  const pg = requireFromPg("./index.js") as typeof import("pg");
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const connection = (client as unknown as { connection: { describe(message: object): void } }).connection;
    let described = 0;
    const describe = connection.describe.bind(connection);
    connection.describe = (message) => {
      described++;
      describe(message);
    };
    // A temporary table: the session's own, seen by no other test.
    await client.query("create temp table shim_probe (id int primary key, amount int not null)");
    await client.query("insert into shim_probe values (1, 1250)");
    const read = () =>
      client.query({
        name: "shim_probe_read",
        text: "select id, amount from shim_probe where id = $1",
        values: [1],
        rowMode: "array",
      });
    const first = await read();
    const second = await read();
    assert.equal(described, 1, "one Describe for two runs");
    assert.deepEqual(second.rows, [[1, 1250]]);
    assert.deepEqual(
      second.fields.map((f) => [f.name, f.dataTypeID]),
      first.fields.map((f) => [f.name, f.dataTypeID]),
    );
    // The column's type changes under the prepared statement: PostgreSQL refuses the run, so a
    // remembered description can never read a row of another shape.
    await client.query("alter table shim_probe alter column amount type text using amount::text");
    await assert.rejects(read(), /cached plan must not change result type/);
  } finally {
    await client.end();
  }
});
