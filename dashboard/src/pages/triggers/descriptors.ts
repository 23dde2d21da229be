/**
 * The parameter-descriptor editor's model: one row per top-level parameter, turned into the
 * service's `params_data` (keyed by type, each key a list of descriptors, the form that declares
 * several parameters of one type) and read back from either form the service answers.
 */
export const PARAM_TYPES = ["number", "string", "boolean", "object", "array"] as const;
export type ParamType = (typeof PARAM_TYPES)[number];
export type AddressCheck = "none" | "ethereum" | "near";

export interface ParamRow {
  /** Stable React key; not sent. */
  key: string;
  type: ParamType;
  name: string;
  desc: string;
  optional: boolean;
  nullable: boolean;
  address: AddressCheck;
  /** Nested descriptors of an object or array, as JSON text (empty: any value). */
  nested: string;
}

let nextKey = 0;
export function newRow(type: ParamType = "string"): ParamRow {
  nextKey += 1;
  return {
    key: `param-${nextKey}`,
    type,
    name: "",
    desc: "",
    optional: false,
    nullable: false,
    address: "none",
    nested: "",
  };
}

export class NestedJsonError extends Error {
  readonly row: number;
  constructor(row: number) {
    super(`Parameter ${row + 1}: the nested descriptors are not valid JSON`);
    this.row = row;
  }
}

/** Rows to `params_data`; the service checks names and nesting and answers each problem by path. */
export function toParamsData(rows: ParamRow[]): Record<string, Record<string, unknown>[]> {
  const out: Record<string, Record<string, unknown>[]> = {};
  rows.forEach((row, index) => {
    const descriptor: Record<string, unknown> = { name: row.name.trim() };
    if (row.desc.trim()) descriptor.desc = row.desc.trim();
    if (row.optional) descriptor.optional = true;
    if (row.nullable) descriptor.nullable = true;
    if (row.type === "string" && row.address === "ethereum") descriptor.is_ethereum_address = true;
    if (row.type === "string" && row.address === "near") descriptor.is_near_address = true;
    if ((row.type === "object" || row.type === "array") && row.nested.trim()) {
      try {
        descriptor.value = JSON.parse(row.nested);
      } catch {
        throw new NestedJsonError(index);
      }
    }
    out[row.type] = [...(out[row.type] ?? []), descriptor];
  });
  return out;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `params_data` as the service answers it (one descriptor or a list per type) to rows. */
export function fromParamsData(data: Record<string, unknown>): ParamRow[] {
  const rows: ParamRow[] = [];
  for (const type of PARAM_TYPES) {
    const entry = data[type];
    const list = Array.isArray(entry) ? entry : isObject(entry) ? [entry] : [];
    for (const raw of list) {
      if (!isObject(raw)) continue;
      rows.push({
        ...newRow(type),
        name: typeof raw.name === "string" ? raw.name : "",
        desc: typeof raw.desc === "string" ? raw.desc : "",
        optional: raw.optional === true,
        nullable: raw.nullable === true,
        address:
          raw.is_ethereum_address === true ? "ethereum" : raw.is_near_address === true ? "near" : "none",
        nested: raw.value === undefined || raw.value === null ? "" : JSON.stringify(raw.value, null, 2),
      });
    }
  }
  return rows;
}
