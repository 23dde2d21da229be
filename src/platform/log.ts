import pino, { type Logger } from "pino";
import { traceFields } from "./tracing.ts";

/**
 * Paths that may carry a secret. pino replaces them before a line is written, so no credential,
 * password, key or token reaches a log, whatever a caller logs by mistake.
 */
const REDACTED_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  "headers.authorization",
  "authorization",
  "password",
  "*.password",
  "token",
  "*.token",
  "key",
  "*.key",
  "invite_token",
  "*.invite_token",
  "edit_token",
  "*.edit_token",
  "private_key",
  "*.private_key",
  "phrase_or_key",
  "*.phrase_or_key",
  "secret",
  "*.secret",
];

// An id (`app_` + 26 characters of the service's base 32) names a record and is no secret. Any other
// path segment that starts like one of the service's secrets (`inv_…`, `kyc_et_…`, `pt_…`, …) or is
// long enough to be a token is a capability (`/kyc/{edit_token}`, `/invitations/{invite_token}`).
const ID_SEGMENT = /^[a-z]{2,8}_[0-9a-hjkmnp-tv-z]{26}$/;
const SECRET_SEGMENT = /^(?:inv|ust|sk|whsec|kyc|pt|shp|prt|evt|vrf|tok)_/i;

/**
 * The URL as it may be logged: every path segment that could be a capability token is masked and
 * the query string dropped (it can carry one too). Fastify logs the URL of every request it cannot
 * route, whatever path or method it was sent with.
 */
export function loggableUrl(url: string): string {
  const [pathPart, query] = url.split(/\?(.*)/s, 2);
  const masked = pathPart
    .split("/")
    .map((segment) =>
      segment === "" || ID_SEGMENT.test(segment) || (segment.length < 16 && !SECRET_SEGMENT.test(segment))
        ? segment
        : "[redacted]",
    )
    .join("/");
  return query === undefined ? masked : `${masked}?[redacted]`;
}

/** The request as Fastify logs it (its own serializer's fields), the URL masked. */
function requestSerializer(request: { method?: string; url?: string; host?: string; ip?: string }) {
  return {
    method: request.method,
    url: loggableUrl(request.url ?? ""),
    host: request.host,
    remoteAddress: request.ip,
  };
}

// node-postgres and drizzle put a failed statement's parameter values into the error (drizzle's
// `params` and its message's `params:` line, PostgreSQL's `detail` "Key (x)=(value)"). Those
// values are payment tokens, hashes, addresses: never written to a log or a job's stored output.
const PARAMS_LINE = /\nparams: [^\n]*/g;
const KEY_VALUES = /\)=\([\s\S]*?\)(?= already exists| is not present|$|\.)/g;

/** The text of an error message or stack with every statement parameter value taken out. */
export function withoutParameters(text: string): string {
  return text.replace(PARAMS_LINE, "\nparams: [redacted]").replace(KEY_VALUES, ")=([redacted])");
}

/** pino's error serializer, then every parameter value taken out, along the `cause` chain too. */
function errorSerializer(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>;
  const scrub = (value: Record<string, unknown>, depth: number) => {
    if (depth > 5) return;
    delete value.params;
    delete value.parameters;
    for (const field of ["message", "stack", "detail", "where", "internalQuery"]) {
      if (typeof value[field] === "string") value[field] = withoutParameters(value[field] as string);
    }
    if (value.cause && typeof value.cause === "object")
      scrub(value.cause as Record<string, unknown>, depth + 1);
  };
  if (serialized && typeof serialized === "object") scrub(serialized, 0);
  return serialized;
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      serializers: { req: requestSerializer, err: errorSerializer },
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      // The current trace and span on every line, so a log line leads to its trace.
      mixin: traceFields,
    },
    destination,
  );
}
