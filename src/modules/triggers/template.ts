import { invalid } from "../../platform/http/errors.ts";

// `{{ name }}` with optional spaces; names as parameters are named.
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const WHOLE = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;

/** Every placeholder name used anywhere inside a JSON value. */
export function references(value: unknown, found = new Set<string>()): Set<string> {
  if (typeof value === "string") {
    for (const match of value.matchAll(PLACEHOLDER)) found.add(match[1]);
  } else if (Array.isArray(value)) {
    for (const item of value) references(item, found);
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      references(key, found);
      references(item, found);
    }
  }
  return found;
}

function asText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * Values of optional parameters the input left out, kept apart from the given ones: a whole
 * placeholder takes this value (typed, as the argument needs), while inside a longer string an
 * omitted parameter still reads as empty text ("order {{id}}" -> "order ", never "order 0").
 */
export const OMITTED: unique symbol = Symbol("omitted optional parameters");
export type TemplateVars = Record<string, unknown> & { [OMITTED]?: Record<string, unknown> };

function textOf(vars: TemplateVars, name: string): string {
  return vars[name] === undefined ? "" : asText(vars[name]);
}

/**
 * Fills placeholders in a JSON value. A string that is exactly one placeholder becomes the
 * parameter's value with its type (a number stays a number, an object an object); a placeholder
 * inside a longer string is replaced by its text. An omitted optional parameter takes its empty
 * value (`OMITTED`); any other absent name is null.
 */
export function substitute(value: unknown, vars: TemplateVars): unknown {
  if (typeof value === "string") {
    const whole = WHOLE.exec(value);
    if (whole) return vars[whole[1]] ?? vars[OMITTED]?.[whole[1]] ?? null;
    return value.replace(PLACEHOLDER, (_, name: string) => textOf(vars, name));
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, vars));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key.replace(PLACEHOLDER, (_, name: string) => textOf(vars, name)),
        substitute(item, vars),
      ]),
    );
  }
  return value;
}

/** A `template` is JSON text; placeholders go inside JSON strings (`"{{amount}}"`). */
export function parseTemplate(template: string, path: string): unknown {
  try {
    return JSON.parse(template);
  } catch {
    throw invalid(path, 'must be JSON text, with placeholders inside strings ("{{name}}")');
  }
}
