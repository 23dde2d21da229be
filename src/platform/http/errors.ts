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

/**
 * When each code is answered and what the caller does about it: the error catalogue of the API's
 * guides (src/platform/http/guides.ts) is made from this list, so a new code must say it here.
 */
const MEANINGS: Record<ErrorCode, string> = {
  validation_failed:
    "A field is missing, of the wrong type, out of range or unknown, or the body is not valid JSON. `errors` names each field (`/body/amount`, `/query/limit`). Fix the request; retrying it unchanged fails the same way.",
  unauthenticated:
    "No credential, or one that is unknown, expired or revoked (a `WWW-Authenticate` header says how to send one). Also a wrong password at log-in.",
  two_factor_required:
    "The password was right and the account has two-factor on: send the answer's `challenge_token` with a code to `POST /auth/login/2fa`.",
  forbidden:
    "The credential is valid but its role may not do this (a developer deleting the app, an API key managing members or keys).",
  not_found:
    "No such resource for this caller: another app's records answer this too, never 403. Also a path no route has.",
  method_not_allowed: "The path exists but not with this method; `Allow` lists the methods it takes.",
  conflict:
    "The request clashes with the resource's current state (a name taken, a record still in use: `open` says what), or a request with the same `Idempotency-Key` is still running.",
  invalid_state_transition:
    "The resource's status does not allow this step (confirming a paid payment, cancelling one whose contract call was sent). Read the resource, then act on its status.",
  idempotency_key_reused:
    "The `Idempotency-Key` was used with a different request (another path, body or caller) in the last 24 hours. Use a new key for a new request.",
  seller_not_payable:
    "The seller named cannot receive transfers now (KYC unfinished, inactive, payouts paused): finish the seller's onboarding or name another seller.",
  wallet_unfunded:
    "The wallet that runs the price's contract call cannot pay for gas: fund it, then try again.",
  request_timeout: "The request body did not arrive in time; the connection is closed. Send it again.",
  payload_too_large: "The body is larger than the route takes (1 MiB for JSON).",
  uri_too_long: "A path parameter is longer than 100 characters.",
  unsupported_media_type: "The body is not `application/json` (or the form type a hosted page posts).",
  header_too_large: "The request line and headers are larger than 16 KiB.",
  rate_limited:
    "Too many requests under one of the limits below: wait for `Retry-After` seconds, then try again.",
  internal:
    "Something failed on the service's side. The answer carries only the `request_id`: quote it to support. Safe to retry with the same `Idempotency-Key`.",
  payment_declined:
    "The provider declined the card or account; the payment stays open for another payment method.",
  provider_unavailable:
    "The payment provider did not answer or failed: retry later (with the same `Idempotency-Key`).",
  chain_unavailable: "The chain's node did not answer: retry later.",
  service_busy:
    "Every database connection is busy for a moment; nothing was done. Retry after `Retry-After` seconds.",
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

/** When the code is answered and what to do about it, for the API's error catalogue. */
export function meaningOf(code: ErrorCode): string {
  return MEANINGS[code];
}

/** Shorthands for the errors services throw most. */
export const notFound = (what: string) => new AppError("not_found", `${what} not found`);
export const forbidden = (detail: string) => new AppError("forbidden", detail);
export const conflict = (detail: string) => new AppError("conflict", detail);
export const invalid = (path: string, message: string) =>
  new AppError("validation_failed", `${path}: ${message}`, { errors: [{ path, message }] });
