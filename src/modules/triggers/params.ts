import { isNearAccountId, normalizeEvmAddress } from "../../platform/chains/accounts.ts";
import { AppError, type FieldError } from "../../platform/http/errors.ts";

/**
 * Parameter descriptors (`params_data`). The object's keys are the five types; each holds one
 * descriptor (the interface's own form) or a list of them, whose `name` is the parameter's key in
 * `params_data_input` and in templates:
 *
 *   { "string": { "name": "receiver", "is_ethereum_address": true }, "number": [{ "name": "qty" }] }
 *
 * An `object` descriptor's `value` lists its fields as one-key objects `{ "<type>": descriptor }`;
 * an `array` descriptor's `value`, when given, is such a one-key object for its elements.
 */
export const PARAM_TYPES = ["number", "string", "boolean", "object", "array"] as const;
export type ParamType = (typeof PARAM_TYPES)[number];

export interface Param {
  type: ParamType;
  name: string;
  desc: string | null;
  optional: boolean;
  nullable: boolean;
  isEthereumAddress: boolean;
  isNearAddress: boolean;
  /** Fields of an `object`; undefined means any object. */
  fields?: Param[];
  /** Element of an `array`; undefined means any elements. */
  element?: Param;
}

// Where each descriptor was written in `params_data`, for errors found later that name it; kept
// beside the descriptor so two descriptors read from either form stay equal.
const WRITTEN_AT = new WeakMap<Param, string>();

/** The path of a descriptor in the `params_data` it was parsed from. */
export const descriptorPath = (param: Param): string => WRITTEN_AT.get(param) ?? "";

/** Names templates always know: the wallet's account and the trigger's custom address. */
export const RESERVED_NAMES = ["wallet", "custom_address"];
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const MAX_DEPTH = 4;
const MAX_PARAMS = 100;

const FIELDS: Record<ParamType, string[]> = {
  number: ["name", "desc", "optional", "nullable"],
  string: ["name", "desc", "optional", "nullable", "is_ethereum_address", "is_near_address"],
  boolean: ["name", "desc", "optional", "nullable"],
  object: ["name", "desc", "optional", "nullable", "value"],
  array: ["name", "desc", "optional", "nullable", "value"],
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

class Collector {
  errors: FieldError[] = [];
  count = 0;
  add(path: string, message: string) {
    this.errors.push({ path, message });
  }
}

function parseDescriptor(
  type: ParamType,
  raw: unknown,
  path: string,
  depth: number,
  out: Collector,
  nameRequired: boolean,
): Param | undefined {
  if (++out.count > MAX_PARAMS) {
    out.add(path, `more than ${MAX_PARAMS} parameters`);
    return undefined;
  }
  if (!isPlainObject(raw)) {
    out.add(path, "must be an object");
    return undefined;
  }
  for (const key of Object.keys(raw)) {
    if (!FIELDS[type].includes(key)) out.add(`${path}/${key}`, `is not a field of a ${type} parameter`);
  }
  const bool = (key: string) => {
    if (raw[key] === undefined) return false;
    if (typeof raw[key] !== "boolean") out.add(`${path}/${key}`, "must be a boolean");
    return raw[key] === true;
  };
  const name = raw.name;
  if (name === undefined ? nameRequired : typeof name !== "string" || !NAME.test(name)) {
    out.add(
      `${path}/name`,
      "must be a name of letters, digits and _ (at most 64), not starting with a digit",
    );
  }
  if (
    raw.desc !== undefined &&
    raw.desc !== null &&
    (typeof raw.desc !== "string" || raw.desc.length > 1000)
  ) {
    out.add(`${path}/desc`, "must be a string of at most 1000 characters");
  }
  const param: Param = {
    type,
    name: typeof name === "string" ? name : "",
    desc: typeof raw.desc === "string" ? raw.desc : null,
    optional: bool("optional"),
    nullable: bool("nullable"),
    isEthereumAddress: type === "string" && bool("is_ethereum_address"),
    isNearAddress: type === "string" && bool("is_near_address"),
  };
  WRITTEN_AT.set(param, path);
  if (param.isEthereumAddress && param.isNearAddress) {
    out.add(`${path}/is_near_address`, "a string cannot be both an Ethereum and a NEAR address");
  }
  if (type === "object" && raw.value !== undefined) {
    if (depth >= MAX_DEPTH) out.add(`${path}/value`, `nests deeper than ${MAX_DEPTH} levels`);
    else if (!Array.isArray(raw.value))
      out.add(`${path}/value`, "must be an array of { <type>: descriptor }");
    else {
      param.fields = raw.value
        .map((item, i) => parseTagged(item, `${path}/value/${i}`, depth + 1, out, true))
        .filter((p): p is Param => p !== undefined);
      uniqueNames(param.fields, `${path}/value`, out);
    }
  }
  if (type === "array" && raw.value !== undefined && raw.value !== null) {
    if (depth >= MAX_DEPTH) out.add(`${path}/value`, `nests deeper than ${MAX_DEPTH} levels`);
    else param.element = parseTagged(raw.value, `${path}/value`, depth + 1, out, false);
  }
  return param;
}

function parseTagged(raw: unknown, path: string, depth: number, out: Collector, nameRequired: boolean) {
  const keys = isPlainObject(raw) ? Object.keys(raw) : [];
  if (keys.length !== 1 || !PARAM_TYPES.includes(keys[0] as ParamType)) {
    out.add(path, `must be an object with exactly one key among ${PARAM_TYPES.join(", ")}`);
    return undefined;
  }
  const type = keys[0] as ParamType;
  return parseDescriptor(
    type,
    (raw as Record<string, unknown>)[type],
    `${path}/${type}`,
    depth,
    out,
    nameRequired,
  );
}

function uniqueNames(params: Param[], path: string, out: Collector) {
  const seen = new Set<string>();
  for (const p of params) {
    if (seen.has(p.name)) out.add(path, `declares the parameter ${p.name} twice`);
    seen.add(p.name);
  }
}

/** Parses and checks `params_data`; every problem is answered at once, each naming its place. */
export function parseParams(raw: unknown, path: string): Param[] {
  const out = new Collector();
  const params: Param[] = [];
  if (raw !== undefined && raw !== null) {
    if (!isPlainObject(raw)) out.add(path, "must be an object keyed by parameter type");
    else {
      for (const [type, list] of Object.entries(raw)) {
        if (!PARAM_TYPES.includes(type as ParamType)) {
          out.add(`${path}/${type}`, `is not a parameter type (${PARAM_TYPES.join(", ")})`);
          continue;
        }
        // The interface's form is one descriptor per type; a list declares several of one type.
        if (isPlainObject(list)) {
          const param = parseDescriptor(type as ParamType, list, `${path}/${type}`, 1, out, true);
          if (param) params.push(param);
          continue;
        }
        if (!Array.isArray(list)) {
          out.add(`${path}/${type}`, "must be a descriptor object or an array of descriptors");
          continue;
        }
        list.forEach((item, i) => {
          const param = parseDescriptor(type as ParamType, item, `${path}/${type}/${i}`, 1, out, true);
          if (param) params.push(param);
        });
      }
    }
  }
  uniqueNames(params, path, out);
  for (const p of params) {
    if (RESERVED_NAMES.includes(p.name)) out.add(path, `${p.name} is reserved for templates`);
  }
  if (out.errors.length > 0) throw failure(out.errors);
  return params;
}

function failure(errors: FieldError[]) {
  return new AppError("validation_failed", errors.map((e) => `${e.path} ${e.message}`).join("; "), {
    errors,
  });
}

function checkValue(param: Param, value: unknown, path: string, out: Collector): void {
  if (value === null) {
    if (!param.nullable) out.add(path, "must not be null");
    return;
  }
  switch (param.type) {
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) out.add(path, "must be a number");
      return;
    case "boolean":
      if (typeof value !== "boolean") out.add(path, "must be a boolean");
      return;
    case "string":
      if (typeof value !== "string") out.add(path, "must be a string");
      else if (param.isEthereumAddress && !normalizeEvmAddress(value))
        out.add(path, "must be an Ethereum address");
      else if (param.isNearAddress && !isNearAccountId(value)) out.add(path, "must be a NEAR account id");
      return;
    case "array":
      if (!Array.isArray(value)) out.add(path, "must be an array");
      else if (param.element) {
        for (const [i, item] of value.entries()) checkValue(param.element, item, `${path}/${i}`, out);
      }
      return;
    case "object":
      if (!isPlainObject(value)) out.add(path, "must be an object");
      else if (param.fields) checkObject(param.fields, value, path, out);
      return;
  }
}

function checkObject(params: Param[], value: Record<string, unknown>, path: string, out: Collector) {
  for (const key of Object.keys(value)) {
    if (!params.some((p) => p.name === key)) out.add(`${path}/${key}`, "is not a declared parameter");
  }
  for (const param of params) {
    if (value[param.name] === undefined) {
      if (!param.optional) out.add(`${path}/${param.name}`, "is required");
    } else checkValue(param, value[param.name], `${path}/${param.name}`, out);
  }
}

/** Checks an input against the descriptors; each failure names its parameter. */
export function checkParamsInput(params: Param[], input: unknown, path: string): Record<string, unknown> {
  const out = new Collector();
  const value = input ?? {};
  if (!isPlainObject(value)) out.add(path, "must be an object keyed by parameter name");
  else checkObject(params, value, path, out);
  if (out.errors.length > 0) throw failure(out.errors);
  return value as Record<string, unknown>;
}

/**
 * What an optional parameter left out of the input renders as: `null` when the descriptor allows
 * null, otherwise its type's empty value (`0`, `""`, `false`, `[]`, `{}`), because EVM, WAX and
 * Solana arguments have no null and a NEAR contract reading a non-nullable field would reject it.
 */
export function emptyValue(param: Param): unknown {
  if (param.nullable) return null;
  switch (param.type) {
    case "number":
      return 0;
    case "boolean":
      return false;
    case "string":
      return "";
    case "array":
      return [];
    case "object":
      return {};
  }
}

/** The empty values of the top-level optional parameters an input leaves out. */
export function omittedValues(params: Param[], values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    params.filter((p) => p.optional && values[p.name] === undefined).map((p) => [p.name, emptyValue(p)]),
  );
}

function exampleOf(param: Param): unknown {
  switch (param.type) {
    case "number":
      return 1;
    case "boolean":
      return true;
    case "string":
      if (param.isEthereumAddress) return "0x0000000000000000000000000000000000000001";
      if (param.isNearAddress) return "buyer.testnet";
      return param.name;
    case "array":
      return param.element ? [exampleOf(param.element)] : [];
    case "object":
      return Object.fromEntries((param.fields ?? []).map((f) => [f.name, exampleOf(f)]));
  }
}

/** A sample `params_data_input` that passes the descriptors, for `params_data_example`. */
export function exampleInput(params: Param[]): Record<string, unknown> {
  return Object.fromEntries(params.map((p) => [p.name, exampleOf(p)]));
}
