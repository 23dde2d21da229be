/**
 * A row description as pg-protocol hands it to pg (text format), from each column's name and type
 * OID: for tests of the shims that read or replay it (test/platform/db-shims.test.ts,
 * test/platform/pg-describe-shim.test.ts).
 */
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
