import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import fc from "fast-check";

/**
 * Request generators for the OpenAPI fuzz test: valid values drawn from each operation's own
 * schemas, and hostile ones (wrong types, NUL and control characters, huge strings, deep nesting,
 * extreme and fractional numbers, odd dates, malformed path parameters, odd media types).
 */

type Schema = Record<string, any>;
export interface Operation {
  method: string;
  /** The OpenAPI path, `/apps/{app_id}`. */
  path: string;
  spec: Schema;
}

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** What was done to the request, for the failure report. */
  label: string;
}

export function operationsOf(doc: Schema): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Schema>(doc.paths)) {
    for (const [method, spec] of Object.entries<Schema>(item)) {
      if (["get", "post", "put", "patch", "delete"].includes(method)) {
        operations.push({ method: method.toUpperCase(), path, spec });
      }
    }
  }
  return operations;
}

// Literals JSON.stringify cannot write (numbers past a double, deep nesting): a marker string in
// the value, replaced by the literal once the body is serialized.
const RAW: string[] = [];
const raw = (literal: string) => {
  RAW.push(literal);
  return `@@RAW:${RAW.length - 1}@@`;
};
export const serialize = (value: unknown) =>
  JSON.stringify(value).replace(/"@@RAW:(\d+)@@"/g, (_m, i) => RAW[Number(i)]);

const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
const deepArray = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

/** Values that fit no field: every one must be refused with a 4xx, never a 5xx. */
export const HOSTILE_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  -0.000001,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER,
  raw("9007199254740993"),
  raw("123456789012345678901234567.89"),
  raw("1e400"),
  raw("1e-400"),
  raw("0.30000000000000004"),
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u0001\u001f\u007f",
  "\ud800",
  "\udfff tail",
  "\u202e\u200b",
  "💩".repeat(50),
  "x".repeat(70_000),
  "123456789012345678901234567.89",
  "-1",
  "NaN",
  "1e400",
  "0000-01-01T00:00:00Z",
  "9999-12-31T23:59:60Z",
  "2024-02-30T00:00:00Z",
  "1969-12-31T23:59:59Z",
  "+275760-09-13T00:00:00Z",
  "10000-01-01T00:00:00Z",
  // Within the years as written, outside them as an instant (UTC).
  "9999-12-31T20:00:00-05:00",
  "1970-01-01T00:00:00+01:00",
  "0000-01-01",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "http://[::127.0.0.1]/",
  "http://[2002:7f00:1::1]/",
  {},
  [],
  [null, "\u0000"],
  { "\u0000": 1 },
  { __proto__x: 1 },
  raw('{"__proto__":{"polluted":true}}'),
  raw(deepObject(5000)),
  raw(deepArray(5000)),
  raw(deepObject(40)),
  raw(deepObject(12)),
];

const hostile = fc.constantFrom(...HOSTILE_VALUES);

const resolve = (schema: Schema, doc: Schema): Schema => {
  if (!schema?.$ref) return schema ?? {};
  const path = (schema.$ref as string).replace(/^#\//, "").split("/");
  return path.reduce((node: Schema, key) => node[key.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
};

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  "date-time": fc
    .date({
      min: new Date("1970-01-02T00:00:00Z"),
      max: new Date("9999-12-30T00:00:00Z"),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString()),
  date: fc.constantFrom("1990-05-17", "2000-02-29", "1955-12-31"),
  email: fc.nat(99_999).map((n) => `fuzz${n}@example.com`),
  // IP literals: a generated URL must never wait on DNS.
  uri: fc.constantFrom("https://93.184.216.34/hook", "https://93.184.216.34/return?x=1"),
};

/** An arbitrary of values the schema accepts (as far as a generator can tell). */
export function validValue(input: Schema, doc: Schema, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(input, doc);
  if ("const" in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return fc.oneof(...union.map((s: Schema) => validValue(s, doc, depth)));
  if (Array.isArray(schema.type)) {
    return fc.oneof(...schema.type.map((type: string) => validValue({ ...schema, type }, doc, depth)));
  }
  switch (schema.type) {
    case "string": {
      if (schema.format && FORMATS[schema.format]) return FORMATS[schema.format];
      if (schema.pattern) {
        const max = schema.maxLength ?? 40;
        return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= max);
      }
      const minLength = schema.minLength ?? 0;
      return fc.string({ minLength, maxLength: Math.max(minLength, Math.min(schema.maxLength ?? 24, 24)) });
    }
    case "integer":
      return fc.integer({ min: schema.minimum ?? -5, max: schema.maximum ?? (schema.minimum ?? 0) + 1000 });
    case "number":
      return fc.oneof(
        fc.integer({ min: schema.minimum ?? 0, max: schema.maximum ?? 1000 }),
        fc.constantFrom(0.5, 2.25, 12.5, 99.99),
      );
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      if (depth > 4) return fc.constant([]);
      return fc.array(validValue(schema.items ?? {}, doc, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    case "object":
      return objectValue(schema, doc, depth);
    default:
      // Free-form JSON (metadata, call data).
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectValue(schema: Schema, doc: Schema, depth: number): fc.Arbitrary<unknown> {
  if (!schema.properties)
    return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
  if (depth > 4) return fc.constant({});
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries<Schema>(schema.properties)) {
    fields[name] = validValue(property, doc, depth + 1);
  }
  // Optional fields are left out at random.
  const required = (schema.required ?? []).filter((name: string) => name in fields);
  return fc.record(fields, { requiredKeys: required });
}

/** Every path to a field of a JSON value, so a mutation can reach nested fields too. */
function fieldPaths(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== "object") return [prefix];
  const entries = Object.entries(value as Record<string, unknown>);
  return [prefix, ...entries.flatMap(([key, child]) => fieldPaths(child, [...prefix, key]))];
}

function replaceAt(value: unknown, path: string[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  copy[path[0]] = replaceAt(copy[path[0]], path.slice(1), replacement);
  return copy;
}

function removeAt(value: unknown, path: string[]): unknown {
  if (path.length === 0 || value === null || typeof value !== "object") return value;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  if (path.length === 1) delete copy[path[0]];
  else copy[path[0]] = removeAt(copy[path[0]], path.slice(1));
  return copy;
}

/** A body: valid, or with one field (at any depth) hostile, missing or joined by an extra one. */
export function bodyValue(
  schema: Schema,
  doc: Schema,
  example?: unknown,
): fc.Arbitrary<{ value: unknown; label: string }> {
  // A known-good body (where the test has one) gets past the business rules, so the mutations
  // reach the code behind them; generated ones cover the rest of the schema.
  const generated = validValue(schema, doc);
  const valid =
    example === undefined
      ? generated
      : fc.oneof({ weight: 3, arbitrary: fc.constant(example) }, { weight: 1, arbitrary: generated });
  return fc.oneof(
    { weight: 3, arbitrary: valid.map((value) => ({ value, label: "valid body" })) },
    {
      weight: 5,
      arbitrary: fc.tuple(valid, fc.nat(), hostile).map(([value, pick, bad]) => {
        const paths = fieldPaths(value);
        const path = paths[pick % paths.length];
        return { value: replaceAt(value, path, bad), label: `body/${path.join("/")} hostile` };
      }),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(valid, fc.nat()).map(([value, pick]) => {
        const paths = fieldPaths(value).filter((p) => p.length > 0);
        if (paths.length === 0) return { value, label: "valid body" };
        const path = paths[pick % paths.length];
        return { value: removeAt(value, path), label: `body/${path.join("/")} missing` };
      }),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(valid, hostile).map(([value, bad]) => ({
        value: value && typeof value === "object" ? { ...value, surprise: bad } : value,
        label: "extra field",
      })),
    },
    { weight: 1, arbitrary: hostile.map((value) => ({ value, label: "whole body hostile" })) },
  );
}

export const HOSTILE_PATH_PARAMS = [
  "%00",
  "a%00b",
  "%ff",
  "%C0%AF",
  "%ED%A0%80",
  // Not a bare "..": a client removes dot segments before sending (RFC 3986, 5.2.4), so
  // `/apps/{app}/kycs/..` is `/apps/{app}`, another operation, not a hostile parameter.
  "%2e%2e%2f",
  "%2F",
  "%20",
  "-1",
  "null",
  "%F0%9F%92%A9",
  "%E2%80%AE",
  "'%20OR%201=1",
  "x".repeat(64),
  "x".repeat(65),
  "x".repeat(150),
  "y".repeat(5000),
];

export const HOSTILE_QUERIES = [
  "page=100000000000000000000",
  "page=1e3",
  "page=-1",
  "page=1.5",
  "limit=abc",
  "limit=%00",
  "page=1&page=2",
  "surprise=1",
  "price_id=%00",
  "status=%ff",
  "page=%ff",
  "limit=99999999999999999999999999",
];

export const MEDIA_TYPES = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "application/json; charset=utf-8",
  "application/merge-patch+json",
  "multipart/form-data; boundary=x",
  "application/xml",
];

export const MALFORMED_BODIES = [
  "",
  "{",
  '{"a":1,}',
  "nul",
  "[1,2",
  "\u0000",
  '"\\ud800"',
  "{}garbage",
  // A key given twice, at the top and nested.
  '{"name":"a","name":"b"}',
  '{"metadata":{"k":1,"\\u006b":2}}',
];

/**
 * Checks answers against the document: below 500, a documented status, a documented content type
 * and a body that matches its schema (Ajv; `$ref`s resolve inside the document).
 */
export function responseChecker(doc: Schema) {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  ajv.addSchema(doc, "openapi");
  const validators = new Map<string, ValidateFunction>();

  /** The validator of a schema at a JSON pointer of the document. */
  function validatorAt(pointer: string[]): ValidateFunction {
    const fragment = pointer
      .map((p) => encodeURIComponent(p.replace(/~/g, "~0").replace(/\//g, "~1")))
      .join("/");
    const ref = `openapi#/${fragment}`;
    let validate = validators.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      validators.set(ref, validate);
    }
    return validate;
  }

  /** Why an answer breaks the document, or undefined when it matches. */
  return function mismatch(
    op: Operation,
    status: number,
    contentType: string,
    text: string,
  ): string | undefined {
    if (status >= 500) return `answered ${status}`;
    const responses = op.spec.responses ?? {};
    const key = [String(status), `${String(status)[0]}XX`, "default"].find((k) => responses[k]);
    const documentsSuccess = Object.keys(responses).some((k) => k.startsWith("2"));
    if (!key) {
      // Hosted pages (checkout, auction page and stream, sandbox challenge, KYC widget) document no
      // success answer: a page, an event stream, or a form's 303 back to the page is what they answer.
      if (!documentsSuccess && status < 300 && /^text\/(html|event-stream)/.test(contentType))
        return undefined;
      if (!documentsSuccess && status === 303) return undefined;
      return `status ${status} is not documented (documented: ${Object.keys(responses).join(", ")})`;
    }
    const content = responses[key].content as Record<string, any> | undefined;
    if (!content) return text === "" ? undefined : `status ${status} documents no body but got one`;
    const type = contentType.split(";")[0].trim();
    if (!content[type])
      return `content type "${type}" not documented for ${key} (${Object.keys(content).join(", ")})`;
    let body: unknown = text;
    if (/json/.test(type)) {
      try {
        body = JSON.parse(text);
      } catch {
        return `${type} body is not JSON: ${text.slice(0, 80)}`;
      }
    }
    const pointer = ["paths", op.path, op.method.toLowerCase(), "responses", key, "content", type, "schema"];
    const validate = validatorAt(pointer);
    if (!validate(body)) return `body does not match its schema: ${ajv.errorsText(validate.errors)}`;
    return undefined;
  };
}
