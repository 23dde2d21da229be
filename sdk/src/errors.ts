import type { components } from "./openapi.ts";

/** One field the service refused, as the problem's `errors` lists it. */
export interface FieldError {
  path: string;
  message: string;
}

/** Every `code` a problem may carry, as the service's document declares them. */
export type ErrorCode = components["schemas"]["Problem"]["code"];

/** Every error this SDK throws extends this one: `catch (e) { if (e instanceof PaymentsError) … }`. */
export class PaymentsError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PaymentsError";
  }
}

/**
 * An answer of 4xx or 5xx: the service's RFC 9457 problem, typed. `code` is stable and meant for
 * programs (`validation_failed`, `not_found`, `conflict`, …); `detail` (the message) is for people.
 * Each family has its own subclass (`NotFoundError`, `RateLimitError`, …); a code this version does
 * not know yet stays an `ApiError`.
 */
export class ApiError extends PaymentsError {
  readonly status: number;
  readonly code: ErrorCode;
  readonly errors: FieldError[];
  readonly requestId: string | undefined;
  readonly headers: Headers | undefined;
  /** The whole problem document as the service sent it (extensions included). */
  readonly problem: Record<string, unknown>;

  constructor(status: number, problem: Record<string, unknown>, requestId?: string, headers?: Headers) {
    const detail = typeof problem.detail === "string" ? problem.detail : `HTTP ${status}`;
    super(detail);
    this.name = "ApiError";
    this.status = status;
    this.code = (typeof problem.code === "string" ? problem.code : `http_${status}`) as ErrorCode;
    this.errors = Array.isArray(problem.errors) ? (problem.errors as FieldError[]) : [];
    this.requestId = typeof problem.request_id === "string" ? problem.request_id : requestId;
    this.headers = headers;
    this.problem = problem;
  }
}

/** 400, 405, 408, 413, 414, 415, 431: the request itself is wrong; `errors` names the fields. */
export class InvalidRequestError extends ApiError {
  override readonly name: string = "InvalidRequestError";
}
/** 401: no credential, or one the service does not accept. */
export class AuthenticationError extends ApiError {
  override readonly name: string = "AuthenticationError";
}
/** 403: the credential may not do this (role, app, scope). */
export class PermissionError extends ApiError {
  override readonly name: string = "PermissionError";
}
/** 404: no such thing, or not one the credential may see. */
export class NotFoundError extends ApiError {
  override readonly name: string = "NotFoundError";
}
/** 409: the thing's state refuses it now (`conflict`, `invalid_state_transition`, `seller_not_payable`). */
export class ConflictError extends ApiError {
  override readonly name: string = "ConflictError";
}
/** 409 `idempotency_key_reused`: the key was first used with another request. */
export class IdempotencyError extends ApiError {
  override readonly name: string = "IdempotencyError";
}
/** 429: too many requests; `retryAfterSeconds` says when to come back. Retried by the client first. */
export class RateLimitError extends ApiError {
  override readonly name: string = "RateLimitError";
  get retryAfterSeconds(): number | undefined {
    const value = Number(this.headers?.get("retry-after") ?? Number.NaN);
    return Number.isFinite(value) ? value : undefined;
  }
}
/** 402: the provider declined the payment method (a test card that declines, insufficient funds). */
export class PaymentDeclinedError extends ApiError {
  override readonly name: string = "PaymentDeclinedError";
}
/** 5xx: the service or a provider or chain behind it failed. Retried by the client first. */
export class ServerError extends ApiError {
  override readonly name: string = "ServerError";
}

const FAMILIES: Partial<Record<string, typeof ApiError>> = {
  validation_failed: InvalidRequestError,
  method_not_allowed: InvalidRequestError,
  request_timeout: InvalidRequestError,
  payload_too_large: InvalidRequestError,
  uri_too_long: InvalidRequestError,
  unsupported_media_type: InvalidRequestError,
  header_too_large: InvalidRequestError,
  unauthenticated: AuthenticationError,
  forbidden: PermissionError,
  not_found: NotFoundError,
  conflict: ConflictError,
  invalid_state_transition: ConflictError,
  seller_not_payable: ConflictError,
  idempotency_key_reused: IdempotencyError,
  rate_limited: RateLimitError,
  payment_declined: PaymentDeclinedError,
  internal: ServerError,
  provider_unavailable: ServerError,
  chain_unavailable: ServerError,
};

const BY_STATUS: Partial<Record<number, typeof ApiError>> = {
  400: InvalidRequestError,
  401: AuthenticationError,
  402: PaymentDeclinedError,
  403: PermissionError,
  404: NotFoundError,
  409: ConflictError,
  429: RateLimitError,
};

/** The error of the family the problem's code (else its status) belongs to. */
export function apiErrorOf(
  status: number,
  problem: Record<string, unknown>,
  requestId: string | undefined,
  headers: Headers | undefined,
): ApiError {
  const family =
    (typeof problem.code === "string" ? FAMILIES[problem.code] : undefined) ??
    BY_STATUS[status] ??
    (status >= 500 ? ServerError : ApiError);
  return new family(status, problem, requestId, headers);
}

/**
 * No usable answer: the connection failed, the time limit passed (`timedOut`), or the body stalled
 * or broke off, after every retry.
 */
export class ConnectionError extends PaymentsError {
  readonly timedOut: boolean;

  constructor(message: string, options: { cause: unknown; timedOut: boolean }) {
    super(message, { cause: options.cause });
    this.name = "ConnectionError";
    this.timedOut = options.timedOut;
  }
}

/** A 2xx whose body is not the JSON the operation answers (a proxy's HTML page, a cut-off body). */
export class InvalidResponseError extends PaymentsError {
  readonly status: number;
  readonly requestId: string | undefined;
  /** The start of what was answered (at most 200 characters). */
  readonly body: string;

  constructor(status: number, body: string, requestId: string | undefined, cause: unknown) {
    super(`HTTP ${status} answered a body that is not JSON`, { cause });
    this.name = "InvalidResponseError";
    this.status = status;
    this.requestId = requestId;
    this.body = body.slice(0, 200);
  }
}
