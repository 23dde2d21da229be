import type { ErrorObject } from "ajv";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import type { FastifySchemaCompiler } from "fastify";
import type { FieldError } from "./errors.ts";

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
  return ajv;
}

const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === "body" ? bodyAjv : textAjv).compile(schema as object);

const PART_NAMES: Record<string, string> = {
  body: "body",
  querystring: "query",
  params: "path",
  headers: "header",
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
    }
    return { path, message };
  });
}
