/**
 * The one list of error codes the API answers, and the one place they map to HTTP statuses.
 * Services throw `AppError`; the error handler turns it into an RFC 9457 problem document.
 */
export const ERROR_STATUS = Object.freeze({
  validation_failed: 400,
  unauthenticated: 401,
  two_factor_required: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  invalid_state_transition: 409,
  idempotency_key_reused: 409,
  seller_not_payable: 409,
  wallet_unfunded: 409,
  request_timeout: 408,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  header_too_large: 431,
  rate_limited: 429,
  internal: 500,
  payment_declined: 402,
  provider_unavailable: 502,
  chain_unavailable: 503,
  service_busy: 503,
} as const);

export type ErrorCode = keyof typeof ERROR_STATUS;

const TITLES: Record<ErrorCode, string> = {
  validation_failed: "Invalid request",
  unauthenticated: "Authentication required",
  two_factor_required: "Second factor required",
  forbidden: "Forbidden",
  not_found: "Not found",
  method_not_allowed: "Method not allowed",
  conflict: "Conflict",
  invalid_state_transition: "Invalid state transition",
  idempotency_key_reused: "Idempotency key reused",
  seller_not_payable: "Seller cannot be paid",
  wallet_unfunded: "Wallet cannot pay for gas",
  request_timeout: "Request timeout",
  payload_too_large: "Payload too large",
  uri_too_long: "URI too long",
  unsupported_media_type: "Unsupported media type",
  header_too_large: "Request header fields too large",
  rate_limited: "Too many requests",
  internal: "Internal server error",
  payment_declined: "Payment declined",
  provider_unavailable: "Payment provider unavailable",
  chain_unavailable: "Chain unavailable",
  service_busy: "Service busy",
};

export interface FieldError {
  /** JSON pointer-like path of the offending field, e.g. `/body/name` or `/query/limit`. */
  path: string;
  message: string;
}

/** The extension members a problem may carry; each is declared in the Problem schema too. */
export interface ProblemExtensions {
  /** What keeps an app from being deleted: counts of its payments still in flight, per kind. */
  open?: Record<string, number>;
  /** What is left to refund of a payment, on a refund of more than that (decimal, charge currency). */
  amount_remaining?: string;
  /** On a log-in whose account has two-factor on: the challenge `POST /auth/login/2fa` answers. */
  challenge_token?: string;
  challenge_expires_at?: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string> | undefined;
  /** RFC 9457 extension members answered beside `detail`, e.g. `open` on a refused app delete. */
  readonly extensions: ProblemExtensions | undefined;
  constructor(
    code: ErrorCode,
    detail: string,
    options: { errors?: FieldError[]; headers?: Record<string, string>; extensions?: ProblemExtensions } = {},
  ) {
    super(detail);
    this.code = code;
    this.errors = options.errors;
    this.headers = options.headers;
    this.extensions = options.extensions;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export function titleOf(code: ErrorCode): string {
  return TITLES[code];
}

/** Shorthands for the errors services throw most. */
export const notFound = (what: string) => new AppError("not_found", `${what} not found`);
export const forbidden = (detail: string) => new AppError("forbidden", detail);
export const conflict = (detail: string) => new AppError("conflict", detail);
export const invalid = (path: string, message: string) =>
  new AppError("validation_failed", `${path}: ${message}`, { errors: [{ path, message }] });
