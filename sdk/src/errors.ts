/** One field the service refused, as the problem's `errors` lists it. */
export interface FieldError {
  path: string;
  message: string;
}

/**
 * An answer of 4xx or 5xx: the service's RFC 9457 problem, typed. `code` is stable and meant for
 * programs (`validation_failed`, `not_found`, `conflict`, …); `detail` is for people.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: FieldError[];
  readonly requestId: string | undefined;
  /** The whole problem document as the service sent it (extensions included). */
  readonly problem: Record<string, unknown>;

  constructor(status: number, problem: Record<string, unknown>, requestId?: string) {
    const detail = typeof problem.detail === "string" ? problem.detail : `HTTP ${status}`;
    super(detail);
    this.name = "ApiError";
    this.status = status;
    this.code = typeof problem.code === "string" ? problem.code : `http_${status}`;
    this.errors = Array.isArray(problem.errors) ? (problem.errors as FieldError[]) : [];
    this.requestId = typeof problem.request_id === "string" ? problem.request_id : requestId;
    this.problem = problem;
  }
}

/** No answer: the connection failed, or the time limit passed (`timedOut`), after every retry. */
export class ConnectionError extends Error {
  readonly timedOut: boolean;

  constructor(message: string, options: { cause: unknown; timedOut: boolean }) {
    super(message, { cause: options.cause });
    this.name = "ConnectionError";
    this.timedOut = options.timedOut;
  }
}
