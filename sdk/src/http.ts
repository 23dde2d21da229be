import { ApiError, ConnectionError } from "./errors.ts";
import { DEFAULT_RETRY, isRetryableStatus, type RetryPolicy, retryDelayMs, sleep } from "./retry.ts";

export interface ClientOptions {
  /** Where the service answers, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** An app's API key (`sk_…`), or a user's session token: sent as `Authorization: Bearer`. */
  apiKey?: string;
  token?: string;
  /** Per try; default 30 s. */
  timeoutMs?: number;
  /** Tries after the first for 429, 5xx and connection failures; default 2. */
  maxRetries?: number;
  /** The first back-off (doubling, with full jitter); default 500 ms. */
  retryBaseDelayMs?: number;
  /** A `fetch` of your own (tests, proxies); default the global one. */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  /**
   * The POST's `Idempotency-Key`. Without one, the client makes one per call and sends it on every
   * try, so a retry never acts twice. Pass your own to make a call safe across process restarts.
   */
  idempotencyKey?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface Call {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** A path template, `/payments/{app_id}`, filled from `params`. */
  path: string;
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** The route honours Idempotency-Key (every POST with a credential, and bids). */
  idempotent?: boolean;
}

export interface Answer<T> {
  data: T;
  status: number;
  headers: Headers;
}

/** The transport: one call, with its key, its tries and its time limits. */
export class Http {
  readonly #options: ClientOptions;
  readonly #retry: RetryPolicy;
  readonly #fetch: typeof fetch;
  #credential: string | undefined;

  constructor(options: ClientOptions) {
    this.#options = options;
    this.#credential = options.apiKey ?? options.token;
    this.#retry = {
      ...DEFAULT_RETRY,
      maxRetries: options.maxRetries ?? DEFAULT_RETRY.maxRetries,
      baseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
    };
    // Bound: a browser's fetch refuses to run as a method of another object ("Illegal invocation").
    const given = options.fetch;
    this.#fetch = given
      ? (input, init) => given(input, init)
      : (input, init) => globalThis.fetch(input, init);
  }

  /** Uses a new credential from now on (after signing up or logging in). */
  authenticate(credential: string | undefined) {
    this.#credential = credential;
  }

  url(call: Pick<Call, "path" | "params" | "query">): URL {
    const path = call.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = call.params?.[name];
      if (value === undefined) throw new TypeError(`Missing path parameter ${name}`);
      return encodeURIComponent(value);
    });
    const url = new URL(path, this.#options.baseUrl);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url;
  }

  async request<T>(call: Call, options: RequestOptions = {}): Promise<Answer<T>> {
    return this.send<T>(this.url(call), call, options);
  }

  async send<T>(url: URL, call: Call, options: RequestOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.#credential) headers.authorization = `Bearer ${this.#credential}`;
    if (call.body !== undefined) headers["content-type"] = "application/json";
    const keyed = call.method === "POST" && call.idempotent;
    if (keyed) headers["idempotency-key"] = options.idempotencyKey ?? crypto.randomUUID();
    // A POST without a key may have acted before its answer was lost: never sent twice.
    const retries = call.method === "POST" && !keyed ? 0 : this.#retry.maxRetries;
    const timeoutMs = options.timeoutMs ?? this.#options.timeoutMs ?? 30_000;
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);

    for (let attempt = 0; ; attempt++) {
      const signal = options.signal
        ? AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)])
        : AbortSignal.timeout(timeoutMs);
      let response: Response;
      try {
        response = await this.#fetch(url, { method: call.method, headers, body, signal });
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason; // the caller's own abort: no retry
        const timedOut = error instanceof DOMException && error.name === "TimeoutError";
        if (attempt >= retries) {
          const what = timedOut ? `timed out after ${timeoutMs} ms` : "could not connect";
          throw new ConnectionError(`${call.method} ${url.pathname} ${what}`, { cause: error, timedOut });
        }
        await sleep(retryDelayMs(attempt + 1, this.#retry, null), options.signal);
        continue;
      }
      if (response.ok) {
        const text = await response.text();
        return {
          data: (text === "" ? undefined : JSON.parse(text)) as T,
          status: response.status,
          headers: response.headers,
        };
      }
      if (attempt < retries && isRetryableStatus(response.status)) {
        await response.body?.cancel();
        await sleep(
          retryDelayMs(attempt + 1, this.#retry, response.headers.get("retry-after")),
          options.signal,
        );
        continue;
      }
      throw new ApiError(
        response.status,
        await problemOf(response),
        response.headers.get("x-request-id") ?? undefined,
      );
    }
  }
}

async function problemOf(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === "object") return parsed as Record<string, unknown>;
  } catch {
    // Not JSON (a proxy's page): the status says what happened.
  }
  return { detail: text.slice(0, 200) || `HTTP ${response.status}` };
}
