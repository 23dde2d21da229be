import type { TSchema } from "typebox";

/**
 * What the OpenAPI document shows of a schema beyond what validation reads: its name and its
 * examples. The schemas themselves (a strict body, a nullable field, an instant) are in ./schemas.ts.
 */

/**
 * Gives each schema its name as `title`: the OpenAPI document lists a titled schema once under
 * `components.schemas` and refers to it everywhere (src/platform/http/openapi.ts). Call once, where
 * the schemas are defined, before any route uses them.
 */
export function nameSchemas(schemas: Record<string, TSchema>) {
  for (const [title, schema] of Object.entries(schemas)) (schema as { title?: string }).title ??= title;
}

/** Examples shown in the OpenAPI document and Swagger UI; an annotation, so validation is unchanged. */
export function withExamples<T extends TSchema>(schema: T, ...examples: unknown[]): T {
  (schema as { examples?: unknown[] }).examples = examples;
  return schema;
}

/** A schema's first example, to build the examples of the schemas that embed it. */
export function exampleOf(schema: TSchema): unknown {
  return (schema as { examples?: unknown[] }).examples?.[0];
}
