import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

// What the tests of the performance shims (src/platform/db/shims/) share:
// test/platform/db-shims.test.ts, pg-describe-shim.test.ts and pg-query-config-shim.test.ts.

/** `require` from inside pg's package, for the internals a pg shim replaces (its `lib/` files). */
export const requireFromPg = createRequire(createRequire(import.meta.url).resolve("pg"));

/** Fails, naming the shim and what to do, when the installed pg is not the one a shim was written against. */
export const assertPgPinned = (shim: string, pinned: string) => {
  const installed = JSON.parse(readFileSync("node_modules/pg/package.json", "utf8")).version;
  assert.equal(
    installed,
    pinned,
    `PERFORMANCE SHIM ${shim} was written against pg ${pinned}, and ${installed} is installed: ` +
      `follow "On upgrade" at the top of ${shim}, then move its PINNED_VERSION`,
  );
};

/** A short digest of a library function's source: it changes when the function does. */
export const fingerprint = (fn: unknown) =>
  createHash("sha256")
    .update(String(fn as () => unknown))
    .digest("hex")
    .slice(0, 16);

/** A row description as pg-protocol hands it to pg (text format), from each column's name and type OID. */
export const rowDescription = (columns: readonly (readonly [name: string, dataTypeID: number])[]) =>
  columns.map(([name, dataTypeID]) => ({
    name,
    tableID: 0,
    columnID: 0,
    dataTypeID,
    dataTypeSize: -1,
    dataTypeModifier: -1,
    format: "text",
  }));
