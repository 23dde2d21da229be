import { AppError, type FieldError } from "./errors.ts";
import { decodeUtf8, duplicateKeyPath } from "./json-text.ts";

/**
 * The limits every request meets before a schema or a service sees it, listed with what each
 * probe gets in docs/reliability.md ("Limits and what hostile input gets"). They exist because a
 * value that passes a schema can still break what lies behind it: PostgreSQL refuses U+0000 and
 * lone surrogates in text and jsonb, a deep object overflows the stack of whatever walks it
 * recursively, and a JSON number beyond 2^53 is silently rounded by JSON.parse.
 */
export const INPUT_LIMITS = Object.freeze({
  /** Request body, bytes (413 beyond). */
  bodyBytes: 1024 * 1024,
  /** Nesting of a whole JSON body, objects and arrays (400 beyond). */
  bodyDepth: 32,
  /** Nesting inside a free-form value (metadata, call data, params), objects and arrays. */
  freeFormDepth: 10,
  /** A free-form value, as UTF-8 JSON bytes. */
  freeFormBytes: 32 * 1024,
  /** Significant digits a JSON number may carry: a double holds 15 exactly, 16-17 only sometimes. */
  numberDigits: 15,
  /** A path parameter, characters (414 beyond): ids are at most 64, edit tokens about 50. */
  paramLength: 100,
  /** Errors listed in one answer; the rest are summed up. */
  errorsListed: 20,
});

/** A number literal that a double cannot hold exactly, kept until its path is known. */
class InexactNumber {
  readonly source: string;
  constructor(source: string) {
    this.source = source;
  }
}

/** Significant digits of a JSON number literal: `0.0120` has 2, `1.5e300` has 2. */
function significantDigits(literal: string): number {
  const mantissa = literal.replace(/^-/, "").split(/[eE]/)[0];
  const [whole, fraction = ""] = mantissa.split(".");
  const digits = (whole + fraction).replace(/^0+/, "");
  // Trailing zeros of the whole part are magnitude, not precision (the range check catches them).
  return digits.replace(/0+$/, "").length;
}

function isExact(value: number, literal: string): boolean {
  if (!Number.isFinite(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER) return false;
  // Underflow: `1e-400` reads as 0.
  if (value === 0 && /[1-9]/.test(literal.split(/[eE]/)[0])) return false;
  // A whole number within ±(2^53-1) is held exactly, however many digits it has.
  if (/^-?\d+$/.test(literal)) return true;
  return significantDigits(literal) <= INPUT_LIMITS.numberDigits;
}

function markInexact(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value === "number" && context?.source !== undefined && !isExact(value, context.source)) {
    return new InexactNumber(context.source);
  }
  return value;
}

// Only a body with a run of 16 digits (or dots) or an exponent can hold an inexact number: every
// other body is parsed without a reviver, at full speed.
const MAYBE_INEXACT = /\d[\d.]{15}|\d[eE]/;

/** How deep objects and arrays nest in JSON text, stopping once past `limit`. */
function nestingOf(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth--;
    }
  }
  return deepest;
}

const bodyError = (message: string) =>
  new AppError("validation_failed", `body: ${message}`, { errors: [{ path: "/body", message }] });

/**
 * Parses a JSON request body. Depth is checked on the text, before anything recursive runs; number
 * literals a double cannot hold exactly are kept as markers that `inputProblems` reports by path.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") throw bodyError("is empty but the content type is application/json");
  if (nestingOf(text, INPUT_LIMITS.bodyDepth) > INPUT_LIMITS.bodyDepth) {
    throw bodyError(`is nested more than ${INPUT_LIMITS.bodyDepth} levels deep`);
  }
  let parsed: unknown;
  try {
    parsed = MAYBE_INEXACT.test(text) ? JSON.parse(text, markInexact) : JSON.parse(text);
  } catch {
    throw bodyError("is not valid JSON");
  }
  const duplicate = duplicateKeyPath(text);
  if (duplicate) {
    const message = "is given twice in one object";
    throw new AppError("validation_failed", `${duplicate} ${message}`, {
      errors: [{ path: duplicate, message }],
    });
  }
  return parsed;
}

/** `parseJsonBody` on the body's bytes: bytes that are not UTF-8 are refused, not replaced. */
export function parseJsonBytes(bytes: Buffer): unknown {
  const text = decodeUtf8(bytes);
  if (text === undefined) throw bodyError("is not valid UTF-8");
  return parseJsonBody(text);
}

const pointer = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

function stringProblem(value: string): string | undefined {
  if (value.includes("\u0000")) return "must not contain the NUL character (U+0000)";
  if (!value.isWellFormed()) return "must be well-formed Unicode (no lone surrogate)";
  return undefined;
}

/**
 * What no field may carry, whatever its schema: U+0000 or a lone surrogate in a string or a key,
 * a `__proto__` key, a number a double cannot hold exactly. Walks without recursion.
 */
export function inputProblems(value: unknown, root: string): FieldError[] {
  const problems: FieldError[] = [];
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length > 0 && problems.length < INPUT_LIMITS.errorsListed) {
    const [node, path] = stack.pop() as [unknown, string];
    if (typeof node === "string") {
      const why = stringProblem(node);
      if (why) problems.push({ path, message: why });
    } else if (node instanceof InexactNumber) {
      problems.push({
        path,
        message:
          `${node.source.slice(0, 40)} cannot be held exactly: numbers are limited to ` +
          `${INPUT_LIMITS.numberDigits} significant digits and ±${Number.MAX_SAFE_INTEGER} ` +
          "(send amounts that need more as decimal strings)",
      });
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], `${path}/${i}`]);
    } else if (node !== null && typeof node === "object" && !Buffer.isBuffer(node)) {
      const keys = Object.keys(node);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i];
        const at = `${path}/${pointer(key)}`;
        const keyProblem = stringProblem(key);
        const why =
          key === "__proto__" ? "is not an allowed field name" : keyProblem && `field name ${keyProblem}`;
        if (why) problems.push({ path: at, message: why });
        else stack.push([(node as Record<string, unknown>)[key], at]);
      }
    }
  }
  return problems;
}

/** Depth (objects and arrays) of an already parsed value, without recursion. */
export function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (node === null || typeof node !== "object") continue;
    const inner = depth + 1;
    if (inner > deepest) deepest = inner;
    for (const child of Object.values(node)) stack.push([child, inner]);
  }
  return deepest;
}
