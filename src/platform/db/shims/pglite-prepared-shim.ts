/*
 * PERFORMANCE SHIM: PGlite with every statement kept prepared (`StatementCachingPGlite`).
 *
 * What: a subclass of PGlite whose `query` names each statement the first time it runs (parse and
 * describe, one protocol call) and from then on sends bind, execute and sync in one call, with the
 * statement's row description kept. It runs inside PGlite's own locks and protocol call, which are
 * private API: `_checkReady`, `_runExclusiveTransaction`, `_runExclusiveQuery`,
 * `execProtocolStream`, and `protocol.serialize` / `parse.parseDescribeStatementResults` /
 * `parse.parseResults`. It also holds the self-wait detector (a statement sent on the database
 * from inside its own transaction fails after `selfWaitMs` instead of hanging the service).
 *
 * Why, as measured (docs/benchmarks.md, "2026-11-23 (third session): prepared statements on
 * PGlite", the code of commit 62b2038; command
 * `BENCH_SECONDS=5 BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench`):
 * before, PGlite's own `query` (six protocol calls, a parse and a plan every time); after, this
 * class. "A loop of one SELECT and one INSERT took 0.48 ms a pair against 0.89 ms with PGlite's
 * `query`, and `GET /apps/{app_id}` on PGlite went from 985 to 1881 req/s."
 *
 * Written against: @electric-sql/pglite 0.5.16 (`PINNED_VERSION`; package.json pins it exactly).
 *
 * On upgrade: test/platform/db-shims.test.ts fails first, naming this file. Then
 * 1. check that the private methods above still exist and mean the same (read PGlite's
 *    `query`/`transaction` in its new `pglite.ts` and `base.ts`: the locks, the sync after a query
 *    outside a transaction, the serializers and parsers used);
 * 2. run test/platform/pglite-statements.test.ts, which compares every answer with PGlite's own;
 * 3. if PGlite now keeps statements prepared itself, or the benchmark above no longer shows this
 *    class ahead of plain `PGlite` (swap it in `open.ts` and run the command), delete this file;
 * 4. else move `PINNED_VERSION` and the exact version in package.json together.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import {
  PGlite,
  protocol,
  parse as protocolResults,
  type QueryOptions,
  type Results,
  type Transaction,
} from "@electric-sql/pglite";

type BackendMessage = Awaited<ReturnType<PGlite["execProtocolStream"]>>[number];

/** The PGlite version this shim was written and measured against (see the comment above). */
export const PINNED_VERSION = "0.5.16";

/** Statements kept per database; the least recently used one is closed beyond this. */
export const STATEMENT_CACHE_SIZE = 300;

interface Statement {
  name: string;
  paramTypes: number[];
  /** The statement's row description (absent for statements that answer no rows). */
  rows?: BackendMessage;
}

const { serialize } = protocol;

/**
 * Set while a transaction's callback runs. PGlite has one connection: a statement sent on the
 * database (not the transaction's `tx`) from inside the callback waits for the transaction, which
 * waits for it. On PostgreSQL it would run on another connection; here it would hang the whole
 * service. Such a statement still waits (work started inside but not awaited by the callback runs
 * once the transaction ends), but past `selfWaitMs` it fails, naming the mistake.
 */
const insideTransaction = new AsyncLocalStorage<boolean>();

/** PostgreSQL's "cached plan must not change result type": a table changed under a stored `*`. */
const isStalePlan = (error: unknown) => (error as { code?: string } | null)?.code === "0A000";

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * PGlite whose `query` keeps every statement it runs as a named prepared statement, as
 * node-postgres does for named queries on a server. PGlite's own `query` sends each statement
 * through six protocol calls (parse, describe, bind, describe, execute, sync), and PostgreSQL parses
 * and plans it again every time; in WebAssembly that is most of a short statement's cost
 * (docs/benchmarks.md). Here a statement seen before costs one call (bind, execute, sync) and no
 * parse; PostgreSQL plans it again or keeps a generic plan as it does for any prepared statement.
 *
 * Results, errors and locking are PGlite's own: the same result parser, the same type serializers,
 * the same two locks (a query outside a transaction waits for any transaction to end), and the data
 * directory is synced after a query outside a transaction as PGlite does.
 *
 * The locks and the protocol call are PGlite's internals (`_checkReady`, `_runExclusiveTransaction`,
 * `_runExclusiveQuery`, `execProtocolStream`), not its documented API: see this file's first
 * comment for the version it is pinned to and what test/platform/db-shims.test.ts checks.
 */
export class StatementCachingPGlite extends PGlite {
  #statements = new Map<string, Statement>();
  #counter = 0;
  /** How long a statement sent from inside an open transaction, not on its `tx`, may wait for it. */
  selfWaitMs = 10_000;

  override async query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    if (options?.blob) return super.query<T>(text, params, options);
    await this._checkReady();
    let abandoned = false;
    const work = this._runExclusiveTransaction(async () => {
      if (abandoned) throw new Error("Statement abandoned: it waited for the transaction that sent it");
      const run = () => this._runExclusiveQuery(() => this.#run<T>(text, params ?? [], options));
      // Outside a transaction a statement whose stored form went stale (see `#run`) is simply
      // parsed again: it failed before it did anything.
      const result = await run().catch((error) => (isStalePlan(error) ? run() : Promise.reject(error)));
      await this.syncToFs();
      return result;
    });
    if (insideTransaction.getStore() !== true) return work;
    let timer: NodeJS.Timeout | undefined;
    const stuck = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        abandoned = true;
        work.catch(() => {});
        reject(
          new Error(
            `A statement on the database waited ${this.selfWaitMs} ms for the open transaction that sent it: use its tx (${text.slice(0, 80)})`,
          ),
        );
      }, this.selfWaitMs);
    });
    return Promise.race([work, stuck]).finally(() => clearTimeout(timer));
  }

  override async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    return super.transaction((tx) => {
      // PGlite's transaction object, with `query` going through the statement cache; the
      // transaction lock is already held, so only the query lock is taken.
      const cached: Transaction = Object.create(tx, {
        query: {
          value: <R>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<R>> => {
            if (tx.closed) throw new Error("Transaction is closed");
            if (options?.blob) return tx.query<R>(text, params, options);
            return this._runExclusiveQuery(() => this.#run<R>(text, params ?? [], options));
          },
        },
      });
      return insideTransaction.run(true, () => callback(cached));
    });
  }

  async #run<T>(text: string, params: unknown[], options: QueryOptions | undefined): Promise<Results<T>> {
    const key = options?.paramTypes ? `${text}\u0000${options.paramTypes.join(",")}` : text;
    const exec = (message: Uint8Array) =>
      this.execProtocolStream(message, { syncToFs: false, onNotice: options?.onNotice });
    try {
      let statement = this.#statements.get(key);
      if (statement) {
        // Most recently used last, so the first entry is the one to close when the cache is full.
        this.#statements.delete(key);
        this.#statements.set(key, statement);
      } else {
        const name = `pglite_s${++this.#counter}`;
        const parts = [
          serialize.parse({ name, text, types: options?.paramTypes }),
          serialize.describe({ type: "S", name }),
          serialize.sync(),
        ];
        const oldest =
          this.#statements.size >= STATEMENT_CACHE_SIZE ? this.#statements.entries().next() : undefined;
        if (oldest && !oldest.done) {
          // Closing a statement is allowed even inside a failed transaction.
          this.#statements.delete(oldest.value[0]);
          parts.unshift(serialize.close({ type: "S", name: oldest.value[1].name }));
        }
        const described = await exec(concat(parts));
        statement = {
          name,
          paramTypes: protocolResults.parseDescribeStatementResults(described),
          rows: described.find((message) => message.name === "rowDescription"),
        };
        this.#statements.set(key, statement);
      }
      const values = params.map((value, index) => {
        if (value === null || value === undefined) return null;
        const type = statement.paramTypes[index];
        const serializer = options?.serializers?.[type] ?? this.serializers[type];
        return serializer ? serializer(value) : String(value);
      });
      let messages: BackendMessage[];
      try {
        messages = await exec(
          concat([
            serialize.bind({ statement: statement.name, values }),
            serialize.execute({}),
            serialize.sync(),
          ]),
        );
      } catch (error) {
        // A table changed under a statement that selects `*`: PostgreSQL refuses to run the
        // stored statement again ("cached plan must not change result type"); parse it afresh
        // next time.
        if (isStalePlan(error)) this.#statements.delete(key);
        throw error;
      }
      const results = protocolResults.parseResults(
        statement.rows ? [statement.rows, ...messages] : messages,
        this.parsers,
        options,
      );
      return results[0] as Results<T>;
    } catch (error) {
      // As PGlite's own query does: the error says which statement failed.
      if (error && typeof error === "object")
        Object.assign(error, { query: text, params, queryOptions: options });
      throw error;
    }
  }
}
