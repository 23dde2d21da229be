import { invalid } from "../../../platform/http/errors.ts";
import { parseTemplate, substitute, type TemplateVars } from "../template.ts";

export type Vars = TemplateVars;

/** What a call on any chain stores besides its own fields: how its arguments take the parameters. */
export interface CallParameters {
  data_input: Record<string, unknown>;
  template: string | null;
}

/** A call's parameter fields as stored: none given is no named values and no template. */
export const callParameters = (input: Partial<CallParameters>): CallParameters => ({
  data_input: input.data_input ?? {},
  template: input.template ?? null,
});

/** Where render problems are reported: the parameter input, or the trigger's own call data. */
export interface RenderPaths {
  input: string;
  call: string;
}

const WHOLE = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;

/**
 * The path to name when argument `name` cannot be encoded: the parameter that filled it when the
 * argument is exactly one placeholder (the caller's input is wrong), otherwise the call data.
 */
export function argumentPath(raw: unknown, name: string, paths: RenderPaths): string {
  const whole = typeof raw === "string" ? WHOLE.exec(raw) : null;
  if (whole && whole[1] !== "wallet" && whole[1] !== "custom_address") return `${paths.input}/${whole[1]}`;
  return `${paths.call}/data_input/${name}`;
}

/** Named argument specs before substitution: `data` values under `data_input` under nothing. */
export function namedSpecs(data: Record<string, unknown>[], dataInput: Record<string, unknown>) {
  const fixed = Object.fromEntries(data.filter((d) => "value" in d).map((d) => [String(d.name), d.value]));
  return { ...fixed, ...dataInput } as Record<string, unknown>;
}

/** The argument specs of a call: the parsed template when there is one, else the named specs. */
export function argumentSpecs(
  call: { template: string | null },
  named: Record<string, unknown>,
  paths: RenderPaths,
): unknown {
  return call.template ? parseTemplate(call.template, `${paths.call}/template`) : named;
}

/** Fills the placeholders of an argument spec (see template.ts). */
export const fill: (spec: unknown, vars: Vars) => unknown = substitute;

export function requireObject(value: unknown, path: string): Record<string, unknown> {
  if (!value || typeof value !== "object" || Array.isArray(value)) throw invalid(path, "must give an object");
  return value as Record<string, unknown>;
}

/** An integer from a JSON number or decimal text, as bigint (chain integers exceed 2^53). */
export function toBigInt(value: unknown): bigint | undefined {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === "string" && /^-?[0-9]{1,78}$/.test(value)) return BigInt(value);
  return undefined;
}

/** JSON-safe copy of rendered arguments: bigints as decimal text. */
export function jsonSafe(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_, v) => (typeof v === "bigint" ? v.toString() : v)));
}
