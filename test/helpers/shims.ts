import { createHash } from "node:crypto";

// What the tests of the performance shims (src/platform/db/shims/) share:
// test/platform/db-shims.test.ts and test/platform/pg-describe-shim.test.ts.

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
