import type { ErrorObject, FormatDefinition, FuncKeywordDefinition } from "ajv";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import type { FastifySchemaCompiler, FastifySchemaValidationError } from "fastify";
import type { FieldError } from "./errors.ts";
import { depthOf, INPUT_LIMITS } from "./input-limits.ts";

/**
 * Years a timestamp may name. PostgreSQL has no year 0 and JavaScript dates stop at 275760; the
 * service has no use for times before the Unix epoch or after 9999.
 */
const TIMESTAMP_YEARS = Object.freeze({ min: 1970, max: 9999 });
/** Years a calendar date (a date of birth) may name. */
const DATE_YEARS = Object.freeze({ min: 1900, max: 9999 });

// Bounded by the instant, not the year written: `9999-12-31T20:00:00-05:00` is in year 10000 in UTC
// (past what the database and `toISOString` write as a plain year), `1970-01-01T00:00:00+01:00` is
// in 1969.
const inYears = (text: string, years: { min: number; max: number }) => {
  const instant = Date.parse(text);
  return instant >= Date.UTC(years.min, 0, 1) && instant < Date.UTC(years.max + 1, 0, 1);
};

function boundedFormat(ajv: Ajv, name: "date-time" | "date", years: { min: number; max: number }) {
  const rfc3339 = ajv.formats[name] as FormatDefinition<string>;
  const check = rfc3339.validate as (text: string) => boolean;
  ajv.addFormat(name, {
    type: "string",
    // JavaScript reads `23:59:60` (a leap second) as an invalid date: refused too.
    validate: (text: string) => check(text) && inYears(text, years),
    compare: rfc3339.compare,
  });
}

/** Free-form values (metadata, call data, params) are held to a depth and a size. */
const freeFormKeyword: FuncKeywordDefinition = {
  keyword: "freeForm",
  schemaType: "boolean",
  errors: true,
  validate: function freeForm(_schema: boolean, data: unknown) {
    const self = freeForm as unknown as { errors: Partial<ErrorObject>[] };
    if (depthOf(data) > INPUT_LIMITS.freeFormDepth) {
      self.errors = [
        { keyword: "freeForm", message: `must nest at most ${INPUT_LIMITS.freeFormDepth} levels deep` },
      ];
      return false;
    }
    if (Buffer.byteLength(JSON.stringify(data) ?? "") > INPUT_LIMITS.freeFormBytes) {
      self.errors = [
        { keyword: "freeForm", message: `must be at most ${INPUT_LIMITS.freeFormBytes} bytes as JSON` },
      ];
      return false;
    }
    return true;
  },
};

function makeAjv(coerce: boolean) {
  const ajv = new Ajv({
    // Unknown fields are refused, never silently dropped: a typo must not pass as "ignored".
    removeAdditional: false,
    useDefaults: true,
    // Query strings and path parameters arrive as text and are coerced; JSON bodies never are,
    // so `"12"` where a number is expected is an error.
    coerceTypes: coerce,
    allErrors: true,
    strict: false,
  });
  addFormats.default(ajv);
  boundedFormat(ajv, "date-time", TIMESTAMP_YEARS);
  boundedFormat(ajv, "date", DATE_YEARS);
  ajv.addKeyword(freeFormKeyword);
  return ajv;
}

const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true);

const ANNOTATIONS = new Set(["description", "title", "default", "examples", "$comment"]);
/** A schema that accepts any JSON value (TypeBox's `Unknown`). */
const acceptsAnything = (schema: unknown): boolean =>
  schema === true ||
  (typeof schema === "object" && schema !== null && Object.keys(schema).every((k) => ANNOTATIONS.has(k)));

/** A schema whose value is caller-shaped JSON: any value, or an object or array of any values. */
function isFreeForm(schema: Record<string, unknown>): boolean {
  if (acceptsAnything(schema)) return true;
  if (schema.type === "array") return acceptsAnything(schema.items);
  if (schema.type !== "object" || schema.properties) return false;
  const patterns = Object.values((schema.patternProperties ?? {}) as Record<string, unknown>);
  return patterns.some(acceptsAnything) || acceptsAnything(schema.additionalProperties);
}

/**
 * A copy of a request schema with `freeForm` on every free-form value, so no module has to
 * remember the limit: the schema that documents the field stays as written.
 */
function withFreeFormLimits(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withFreeFormLimits);
  if (typeof schema !== "object" || schema === null) return schema;
  const record = schema as Record<string, unknown>;
  if (isFreeForm(record)) return { ...record, freeForm: true };
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) copy[key] = withFreeFormLimits(value);
  return copy;
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  httpPart === "body"
    ? bodyAjv.compile(withFreeFormLimits(schema) as object)
    : textAjv.compile(schema as object);

type Validate = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };

/**
 * `validatorCompiler`, each validator compiled when its route first validates a request rather
 * than when the server starts: Ajv's compiling of every route's schemas is a third of a second of
 * CPU at each start, while a test file calls a few routes (test/helpers/app.ts turns this on, as
 * it does `buildSerializerOnFirstUse`). Fastify reads `errors` from the function it was given, so
 * the compiled one's are copied onto it after each call.
 */
export const validatorCompilerOnFirstUse: FastifySchemaCompiler<unknown> = (route) => {
  let compiled: Validate | undefined;
  const validate: Validate = (data) => {
    compiled ??= validatorCompiler(route) as Validate;
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  };
  return validate;
};

const PART_NAMES: Record<string, string> = {
  body: "body",
  querystring: "query",
  params: "path",
  headers: "header",
};

const FORMAT_MESSAGES: Record<string, string> = {
  "date-time": `must be an RFC 3339 date-time (2025-01-31T12:00:00Z) in the years ${TIMESTAMP_YEARS.min} to ${TIMESTAMP_YEARS.max}`,
  date: `must be a date (2025-01-31) in the years ${DATE_YEARS.min} to ${DATE_YEARS.max}`,
};

/** Turns Ajv's errors into `{path, message}` pairs that name the field. */
export function fieldErrors(errors: ErrorObject[], context: string): FieldError[] {
  const part = PART_NAMES[context] ?? context;
  return errors.map((error) => {
    let path = `/${part}${error.instancePath}`;
    let message = error.message ?? "is invalid";
    if (error.keyword === "required") {
      path += `/${(error.params as { missingProperty: string }).missingProperty}`;
      message = "is required";
    } else if (error.keyword === "additionalProperties") {
      path += `/${(error.params as { additionalProperty: string }).additionalProperty}`;
      message = "is not a known field";
    } else if (error.keyword === "format") {
      message = FORMAT_MESSAGES[(error.params as { format: string }).format] ?? message;
    }
    return { path, message };
  });
}
