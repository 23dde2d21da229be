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

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      // The current trace and span on every line, so a log line leads to its trace.
      mixin: traceFields,
    },
    destination,
  );
}
