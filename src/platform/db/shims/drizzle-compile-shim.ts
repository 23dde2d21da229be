/*
 * PERFORMANCE SHIM: a copy of Drizzle's SQL compiler for the chunks our statements are made of.
 *
 * What: `compileSql` turns a Drizzle `sql` into text and parameters exactly as
 * `PgDialect.sqlToQuery` does (test/platform/statements.test.ts holds the two to the same text),
 * walking the chunks itself; `compileTemplate` does the same for a statement with placeholders,
 * leaving holes for `withValues`; `TextAndValues` is a piece of text and values in one chunk (a
 * row of `insertRow`) that only this compiler reads directly; `driverConversion` skips Drizzle's
 * base column conversion, which answers its input. They lean on Drizzle's internals: the classes
 * `StringChunk` (its `value` array), `Param` (its `encoder`), `Name`, `Placeholder`, SQL's private
 * `shouldInlineParams` (read through `as unknown as`), `SQL.prototype.buildQueryFromSourceParams`
 * (the method copied here), and `Column.prototype.mapToDriverValue` being the identity. Anything
 * else (views, subqueries, aliases, enums, inlined parameters) goes to Drizzle's own compiler.
 *
 * Why, as measured (docs/benchmarks.md, "2026-11-25: the create's SQL in one place, before and
 * after"; command
 * `BENCH_SECONDS=5 BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench`):
 * "compiling through Drizzle's own dialect made building the create's statement 10 to 20 times
 * slower, and was not kept" (Drizzle copies its settings at every nested piece; the create's
 * statement cost more to compile than to run). With this compiler, issue 16's whole rebuild of the
 * create's statement measured POST /payments/{app_id} at peak on PostgreSQL 1,302 req/s before
 * (`96c1a99`) and 1,556 after, on PGlite 391 and 398. `driverConversion`: the 2026-11-26 profile
 * ("Where the create's time went") put `Column.mapToDriverValue`, the identity, at 3.9% of a
 * create's samples, called from `insertRow`; its effect on throughput was below what the machine
 * could resolve that day.
 *
 * Written against: drizzle-orm 0.45.4 (`PINNED_VERSION`; the version in package-lock.json).
 *
 * On upgrade: test/platform/db-shims.test.ts fails first, naming this file. Then
 * 1. diff Drizzle's `SQL.buildQueryFromSourceParams` (drizzle-orm/sql/sql.js) with the version
 *    above: a new kind of chunk, or a change to how one is written, must be copied into
 *    `Compilation.write` (or sent to Drizzle's compiler by throwing `NotCompiledHere`);
 * 2. run test/platform/statements.test.ts, which compares this compiler's text with Drizzle's;
 * 3. if Drizzle's own compiler has become fast enough (make `compileSql` answer
 *    `dialect.sqlToQuery(statement)` and run the command above: the create on PostgreSQL must not
 *    lose what this compiler gave), delete this file and compile with the dialect in
 *    `statements.ts`;
 * 4. else move `PINNED_VERSION` with the new version.
 */
import {
  Column,
  isSQLWrapper,
  Name,
  Param,
  Placeholder,
  SQL,
  type SQLWrapper,
  StringChunk,
  Subquery,
  sql,
  Table,
  View,
} from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";

/** The drizzle-orm version this shim was written and measured against (see the comment above). */
export const PINNED_VERSION = "0.45.4";

const dialect = new PgDialect();

/**
 * Text and parameters taking turns, `texts[0] $1 texts[1] $2 … texts[n]`: a piece of a statement
 * made of many values (a row, a template's use) as one Drizzle chunk instead of a `sql` per value,
 * each of which costs more to make than the text it adds. `Compilation` writes it directly;
 * Drizzle's own compiler sees the equivalent `sql` (`getSQL`).
 */
export class TextAndValues implements SQLWrapper {
  readonly texts: readonly string[];
  readonly values: readonly unknown[];
  /**
   * The text with its parameters numbered from $1, made once for a template's every use: a
   * statement that is this chunk alone is then the same string each time (no text built, and the
   * prepared statement's name found by identity).
   */
  readonly numbered: string | undefined;
  constructor(texts: readonly string[], values: readonly unknown[], numbered?: string) {
    this.texts = texts;
    this.values = values;
    this.numbered = numbered;
  }
  getSQL(): SQL {
    const chunks: SQL[] = [sql.raw(this.texts[0])];
    for (const [i, value] of this.values.entries())
      chunks.push(sql`${sql.param(value)}`, sql.raw(this.texts[i + 1]));
    return sql.join(chunks);
  }
  shouldOmitSQLParens() {
    return true;
  }
}

/**
 * Drizzle's conversion of a value to the driver's for this column, or undefined where the column
 * keeps Drizzle's base conversion, which answers the value itself: calling it for every value of
 * every row was a measurable share of a create (see above).
 */
export function driverConversion(column: Column): ((value: unknown) => unknown) | undefined {
  if (column.mapToDriverValue === Column.prototype.mapToDriverValue) return undefined;
  return (value) => column.mapToDriverValue(value);
}

/** Tables and columns are few and live for the process: each one's text is made once. */
const namesText = new WeakMap<Table | Column, string>();
export function textOf(named: Table | Column): string {
  let text = namesText.get(named);
  if (text === undefined) {
    text = dialect.sqlToQuery(sql`${named}`).sql;
    namesText.set(named, text);
  }
  return text;
}

/** A piece `Compilation` leaves to Drizzle's own compiler (views, subqueries, aliases, enums). */
class NotCompiledHere extends Error {}

/**
 * Compiles a statement as Drizzle's dialect does, its parameters numbered in order, several times
 * faster: Drizzle's compiler copies its settings at every nested piece. With `template`,
 * placeholders are left as holes (`texts` between them, `names` of them) and a value is refused.
 */
class Compilation {
  readonly template: boolean;
  readonly texts: string[] = [""];
  readonly names: string[] = [];
  readonly values: unknown[] = [];
  constructor(template: boolean) {
    this.template = template;
  }

  #text(more: string) {
    this.texts[this.texts.length - 1] += more;
  }

  #parameter(value: unknown) {
    if (value instanceof Placeholder) {
      if (!this.template) throw new Error(`The placeholder ${value.name} has no value: see withValues`);
      this.names.push(value.name);
      this.texts.push("");
      return;
    }
    if (this.template) throw new Error("A template holds placeholders only, no values");
    this.values.push(value);
    this.#text(`$${this.values.length}`);
  }

  write(chunk: unknown): void {
    if (chunk === undefined) {
      // Drizzle writes nothing for it either (an optional part left out).
    } else if (chunk instanceof StringChunk) {
      this.#text(chunk.value.join(""));
    } else if (chunk instanceof SQL) {
      // Drizzle's `inlineParams()` writes values into the text, which only its compiler does.
      if ((chunk as unknown as { shouldInlineParams: boolean }).shouldInlineParams)
        throw new NotCompiledHere();
      for (const part of chunk.queryChunks) this.write(part);
    } else if (chunk instanceof TextAndValues) {
      if (chunk.numbered !== undefined && this.values.length === 0 && !this.template) {
        this.#text(chunk.numbered);
        this.values.push(...chunk.values);
        return;
      }
      this.#text(chunk.texts[0]);
      for (const [i, value] of chunk.values.entries()) {
        this.#parameter(value);
        this.#text(chunk.texts[i + 1]);
      }
    } else if (chunk instanceof Param) {
      const mapped =
        chunk.value === null || chunk.value instanceof Placeholder
          ? chunk.value
          : chunk.encoder.mapToDriverValue(chunk.value);
      if (mapped instanceof SQL) this.write(mapped);
      else this.#parameter(mapped);
    } else if (chunk instanceof Placeholder) {
      this.#parameter(chunk);
    } else if (chunk instanceof Name) {
      this.#text(dialect.escapeName(chunk.value));
    } else if (chunk instanceof Table || chunk instanceof Column) {
      this.#text(textOf(chunk));
    } else if (Array.isArray(chunk)) {
      this.#text("(");
      for (const [i, part] of chunk.entries()) {
        if (i > 0) this.#text(", ");
        this.write(part);
      }
      this.#text(")");
    } else if (
      chunk instanceof View ||
      chunk instanceof Subquery ||
      chunk instanceof SQL.Aliased ||
      typeof chunk === "function" // a pgEnum
    ) {
      throw new NotCompiledHere();
    } else if (isSQLWrapper(chunk)) {
      const parens = !chunk.shouldOmitSQLParens?.();
      if (parens) this.#text("(");
      this.write(chunk.getSQL());
      if (parens) this.#text(")");
    } else {
      this.#parameter(chunk);
    }
  }
}

/**
 * A statement's text and parameters, as `dialect.sqlToQuery` answers them; Drizzle's compiler for
 * what it alone knows.
 */
export function compileSql(statement: SQL): { sql: string; params: unknown[] } {
  try {
    const compilation = new Compilation(false);
    compilation.write(statement);
    return { sql: compilation.texts[0], params: compilation.values };
  } catch (error) {
    if (!(error instanceof NotCompiledHere)) throw error;
    return dialect.sqlToQuery(statement);
  }
}

/**
 * A statement with placeholders (`sql.placeholder`) and no values, as the text around its
 * placeholders and their names in order (`withValues` gives them values).
 */
export function compileTemplate(template: SQL): { texts: string[]; names: string[] } {
  const compilation = new Compilation(true);
  compilation.write(template);
  return { texts: compilation.texts, names: compilation.names };
}
