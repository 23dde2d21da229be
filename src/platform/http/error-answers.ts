// Every error as an RFC 9457 answer: the only place an error becomes HTTP. The server
// (server.ts) hands these the errors of its routes, of Fastify before a route is found, and of
// Node's HTTP parser before Fastify sees a request.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { DatabaseBusyError } from "../db/index.ts";
import { newId } from "../ids.ts";
import { AppError, ERROR_STATUS, type ErrorCode, type ProblemExtensions, titleOf } from "./errors.ts";
import { INPUT_LIMITS } from "./input-limits.ts";
import { fieldErrors } from "./validation.ts";

const BODY_LIMIT = INPUT_LIMITS.bodyBytes;
const WWW_AUTHENTICATE = 'Bearer realm="api", Basic realm="api", charset="UTF-8"';

/** The RFC 9457 body of an error answer; `requestId` is what support asks for. */
function problem(
  requestId: string,
  code: ErrorCode,
  detail: string,
  errors?: unknown[],
  extensions?: ProblemExtensions,
) {
  return {
    type: `urn:problem:${code}`,
    title: titleOf(code),
    status: ERROR_STATUS[code],
    detail,
    code,
    ...(errors ? { errors } : {}),
    ...extensions,
    request_id: requestId,
  };
}

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ErrorCode,
  detail: string,
  errors?: unknown[],
  extensions?: ProblemExtensions,
) {
  return reply
    .code(ERROR_STATUS[code])
    .header("x-request-id", request.id)
    .type("application/problem+json")
    .send(problem(request.id, code, detail, errors, extensions));
}

/** Errors Fastify meets before a route is found: a URL that does not decode, an over-long parameter. */
export function handleFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === "FST_ERR_MAX_PARAM_LENGTH") {
    return sendProblem(
      request,
      reply,
      "uri_too_long",
      `A path parameter is longer than ${INPUT_LIMITS.paramLength} characters`,
      [{ path: "/path", message: `must be at most ${INPUT_LIMITS.paramLength} characters per parameter` }],
    );
  }
  if (error.code === "FST_ERR_BAD_URL") {
    const message = "is not a valid percent-encoded UTF-8 URL";
    return sendProblem(request, reply, "validation_failed", `The path ${message}`, [
      { path: "/path", message },
    ]);
  }
  return handleError(error, request, reply);
}

// Node's HTTP parser refuses some requests before Fastify sees them (over-long request line or
// headers, malformed HTTP, a client too slow to send its headers); they still get a problem.
const CLIENT_ERRORS: Record<string, [ErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: ["header_too_large", "The request line and headers are larger than 16 KiB"],
  ERR_HTTP_REQUEST_TIMEOUT: ["request_timeout", "The request was not received in time"],
};

export function handleClientError(
  this: FastifyInstance,
  error: NodeJS.ErrnoException & { rawPacket?: unknown },
  socket: import("node:net").Socket,
  allowed: (path: string) => string[],
) {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  let [code, detail] = CLIENT_ERRORS[error.code ?? ""] ?? [
    "validation_failed",
    "The request is not valid HTTP",
  ];
  let extraHeaders = "";
  // A method Node's parser does not know at all (`FOO /apps`): 405 as for a known one.
  if (error.code === "HPE_INVALID_METHOD") {
    const raw = Buffer.isBuffer(error.rawPacket) ? error.rawPacket.toString("latin1") : "";
    const path = /^\S+ (\/\S*)/.exec(raw)?.[1] ?? "";
    const methods = allowed(path);
    if (methods.length > 0) {
      [code, detail] = ["method_not_allowed", `Allowed here: ${methods.join(", ")}`];
      extraHeaders = `Allow: ${methods.join(", ")}\r\n`;
    }
  }
  const id = newId("req");
  const status = ERROR_STATUS[code];
  const body = JSON.stringify(problem(id, code, detail));
  this.log.debug({ err: error, request_id: id }, "client error");
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${titleOf(code)}\r\nContent-Type: application/problem+json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${id}\r\n${extraHeaders}Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** What a 503 for an exhausted pool asks the client to wait (its Retry-After). */
const BUSY_RETRY_AFTER_SECONDS = 1;

/** True when `error` or one of its causes (Drizzle wraps the driver's error) `matches`. */
function causedBy(error: unknown, matches: (cause: unknown) => boolean): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (matches(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** PostgreSQL's SQLSTATE for a transaction it rolled back to break a deadlock. */
const DEADLOCK_DETECTED = "40P01";
const isDeadlock = (cause: unknown) => (cause as { code?: unknown }).code === DEADLOCK_DETECTED;

/** Maps every error to an RFC 9457 answer; the only place errors become HTTP. */
export function handleError(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    if (error.headers) reply.headers(error.headers);
    if (error.code === "unauthenticated" && !error.headers?.["www-authenticate"]) {
      reply.header("www-authenticate", WWW_AUTHENTICATE);
    }
    return sendProblem(request, reply, error.code, error.message, error.errors, error.extensions);
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const errors = fieldErrors(
      fastifyError.validation as Parameters<typeof fieldErrors>[0],
      fastifyError.validationContext ?? "body",
    );
    const detail = errors.map((e) => `${e.path} ${e.message}`).join("; ");
    return sendProblem(request, reply, "validation_failed", detail, errors);
  }
  const status = fastifyError.statusCode ?? 500;
  if (status === 413) {
    return sendProblem(request, reply, "payload_too_large", `The body is larger than ${BODY_LIMIT} bytes`);
  }
  if (status === 415) {
    return sendProblem(request, reply, "unsupported_media_type", "Send the body as application/json");
  }
  if (fastifyError.code === "FST_ERR_CTP_INVALID_CONTENT_LENGTH") {
    const message = "does not match the Content-Length header";
    return sendProblem(request, reply, "validation_failed", `The body ${message}`, [
      { path: "/body", message },
    ]);
  }
  if (status === 400) {
    // Any other 400 of Fastify's own (the JSON parser above answers malformed and empty bodies).
    const detail =
      fastifyError.code === "FST_ERR_CTP_EMPTY_JSON_BODY"
        ? "The body is empty but the content type is application/json"
        : "The body is not valid JSON";
    return sendProblem(request, reply, "validation_failed", detail, [{ path: "/body", message: detail }]);
  }
  if (status === 404) return sendProblem(request, reply, "not_found", "No such route");
  if (causedBy(error, (cause) => cause instanceof DatabaseBusyError)) {
    // Every pooled connection stayed busy for DATABASE_POOL_WAIT_MS: a moment of overload, not a
    // fault. Nothing was written (the query never started), so the same request may simply come again.
    request.log.warn("database pool exhausted; answered 503");
    reply.header("retry-after", String(BUSY_RETRY_AFTER_SECONDS));
    return sendProblem(
      request,
      reply,
      "service_busy",
      "Every database connection is busy; try again shortly",
    );
  }
  if (causedBy(error, isDeadlock)) {
    // Two requests locked the same rows in opposite orders (an app deleted while one of its prices
    // is edited: docs/decisions.md §17) and PostgreSQL rolled this one back: nothing was written.
    request.log.warn({ err: error }, "deadlock with a concurrent change; answered 409");
    return sendProblem(
      request,
      reply,
      "conflict",
      "Another change to the same records happened at the same moment; try again",
    );
  }
  request.log.error({ err: error }, "unhandled error");
  // A 5xx never carries internals: the request id is what support needs.
  return sendProblem(request, reply, "internal", "Something went wrong on our side");
}
