import { apiErrorOf, ConnectionError, InvalidResponseError } from "./errors.ts";
import { DEFAULT_RETRY, isRetryableStatus, type RetryPolicy, retryDelayMs, sleep } from "./retry.ts";
import { PACKAGE, VERSION } from "./version.ts";

export interface ClientOptions {
  /** Where the service answers, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** An app's API key (`sk_…`), or a user's session token: sent as `Authorization: Bearer`. */
  apiKey?: string | undefined;
  token?: string | undefined;
  /** Per try; default 30 s. */
  timeoutMs?: number | undefined;
  /** Tries after the first for 429, 5xx and connection failures; default 2. */
  maxRetries?: number | undefined;
  /** The first back-off (doubling, with full jitter); default 500 ms. */
  retryBaseDelayMs?: number | undefined;
  /** A `fetch` of your own (tests, proxies); default the global one. */
  fetch?: typeof fetch | undefined;
  /** Headers sent with every call (after the client's own, so they may replace `User-Agent`). */
  headers?: Record<string, string> | undefined;
}

/** Options every method takes as its last argument. */
export interface RequestOptions {
  /**
   * The POST's `Idempotency-Key`. Without one, the client makes one per call and sends it on every
   * try, so a retry never acts twice. Pass your own to make a call safe across process restarts.
   */
  idempotencyKey?: string | undefined;
  /** This call's limit per try (headers and body), instead of the client's. */
  timeoutMs?: number | undefined;
  /** Aborts the call at once (never retried); the promise rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** This call's tries after the first, instead of the client's. */
  maxRetries?: number | undefined;
  /** Extra headers for this call (e.g. `x-payment-token` for the checkout's own calls). */
  headers?: Record<string, string> | undefined;
}

/** What the service answered besides the body: stripe-node's `lastResponse`. */
export interface ResponseMeta {
  /** `x-request-id`: give it to support. */
  requestId: string | undefined;
  statusCode: number;
  headers: Headers;
  /** `idempotent-replayed: true`: the answer was stored from an earlier call with the same key. */
  idempotentReplayed: boolean;
  /** The key this call sent (yours or the client's own), if it sent one. */
  idempotencyKey: string | undefined;
}

/** An answer with its metadata; `lastResponse` is not enumerable (JSON.stringify leaves it out). */
export type WithResponse<T> = T extends object ? T & { readonly lastResponse: ResponseMeta } : T;

/** A body sent as it is, with its own content type (an image upload). */
export type Bytes = Blob | ArrayBuffer | Uint8Array;

export interface Call {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** A path template, `/payments/{app_id}`, filled from `params`. */
  path: string;
  params?: Record<string, string> | undefined;
  query?: Record<string, string | number | boolean | undefined> | undefined;
  body?: unknown;
  /** Set for a body of bytes (`body` is `Bytes`), sent with this type instead of as JSON. */
  contentType?: string | undefined;
  /** The route honours Idempotency-Key (declared on the operation). */
  idempotent?: boolean | undefined;
  /** Header parameters the operation declares (the checkout's `x-payment-token`). */
  headers?: Record<string, string | undefined> | undefined;
}

export interface Answer<T> {
  data: T;
  meta: ResponseMeta;
}

function runtime(): string | undefined {
  const g = globalThis as {
    Bun?: { version: string };
    Deno?: { version: { deno: string } };
    process?: { versions?: { node?: string } };
  };
  if (g.Bun) return `bun/${g.Bun.version}`;
  if (g.Deno) return `deno/${g.Deno.version.deno}`;
  const node = g.process?.versions?.node;
  // Browsers own their User-Agent: none is set there.
  return node ? `node/v${node}` : undefined;
}
const RUNTIME = runtime();
export const USER_AGENT = RUNTIME ? `${PACKAGE}/${VERSION} ${RUNTIME}` : undefined;

/** A random key; Node 18 has no global `crypto`, so a non-cryptographic one there (uniqueness is all a key needs). */
function newKey(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  return "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx".replace(/[xy]/g, (ch) => {
    const r = Math.floor(Math.random() * 16);
    return (ch === "x" ? r : (r & 0x3) | 0x8).toString(16);
  });
}

/** The caller's signal and a per-try timer, as one signal (AbortSignal.any is missing before Node 18.17/20.3). */
function trySignal(timeoutMs: number, caller: AbortSignal | undefined): AbortSignal {
  const timer = AbortSignal.timeout(timeoutMs);
  if (!caller) return timer;
  if (typeof AbortSignal.any === "function") return AbortSignal.any([caller, timer]);
  const controller = new AbortController();
  for (const signal of [caller, timer]) {
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
  }
  return controller.signal;
}

/** Adds `lastResponse` to an answer, not enumerable, so it neither prints nor serialises. */
export function withResponse<T>(data: T, meta: ResponseMeta): WithResponse<T> {
  if (data !== null && typeof data === "object") {
    Object.defineProperty(data, "lastResponse", { value: meta, enumerable: false, configurable: true });
  }
  return data as WithResponse<T>;
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

  get baseUrl(): string {
    return this.#options.baseUrl;
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

  /** The headers of a call: the client's own, the operation's, then the caller's. */
  headersOf(call: Call, options: RequestOptions): Record<string, string> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (USER_AGENT) headers["user-agent"] = USER_AGENT;
    if (this.#credential) headers.authorization = `Bearer ${this.#credential}`;
    if (call.body !== undefined) headers["content-type"] = call.contentType ?? "application/json";
    for (const [name, value] of Object.entries(call.headers ?? {}))
      if (value !== undefined) headers[name] = value;
    Object.assign(headers, this.#options.headers, options.headers);
    return headers;
  }

  /**
   * Opens a streaming answer (server-sent events) and answers the response with its body unread.
   * A refusal throws as any call's does (`ApiError` and its families); a failure to connect throws
   * `ConnectionError`. No retry here: the stream's own loop decides when to reconnect.
   */
  async openStream(call: Call, options: RequestOptions, signal: AbortSignal): Promise<Response> {
    const url = this.url(call);
    const headers = { ...this.headersOf(call, options), accept: "text/event-stream" };
    let response: Response;
    try {
      response = await this.#fetch(url, { method: "GET", headers, signal });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new ConnectionError(`GET ${url.pathname} could not connect`, { cause: error, timedOut: false });
    }
    const requestId = response.headers.get("x-request-id") ?? undefined;
    if (!response.ok) {
      const text = await response.text().catch(() => "");
      throw apiErrorOf(response.status, problemOf(text, response.status), requestId, response.headers);
    }
    if (!/^text\/event-stream/.test(response.headers.get("content-type") ?? "")) {
      const text = await response.text().catch(() => "");
      throw new InvalidResponseError(response.status, text, requestId, undefined);
    }
    return response;
  }

  async send<T>(url: URL, call: Call, options: RequestOptions = {}): Promise<Answer<T>> {
    const headers = this.headersOf(call, options);
    const keyed = call.method === "POST" && call.idempotent;
    const idempotencyKey = keyed ? (options.idempotencyKey ?? newKey()) : undefined;
    if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
    // A POST without a key may have acted before its answer was lost: never sent twice.
    const retries = call.method === "POST" && !keyed ? 0 : (options.maxRetries ?? this.#retry.maxRetries);
    const timeoutMs = options.timeoutMs ?? this.#options.timeoutMs ?? 30_000;
    // Bytes are sent as they are (and again on a retry: none of them is a one-time stream).
    const body =
      call.body === undefined
        ? null
        : call.contentType
          ? (call.body as Bytes as Blob)
          : JSON.stringify(call.body);

    for (let attempt = 0; ; attempt++) {
      const signal = trySignal(timeoutMs, options.signal);
      let response: Response;
      let text: string;
      try {
        response = await this.#fetch(url, { method: call.method, headers, body, signal });
        // Read under the same time limit: a body that stalls after its headers is a failed try too.
        text = await response.text();
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason; // the caller's own abort: no retry
        const timedOut = (error as { name?: unknown } | null)?.name === "TimeoutError";
        if (attempt >= retries) {
          const what = timedOut ? `timed out after ${timeoutMs} ms` : "could not connect or was cut off";
          throw new ConnectionError(`${call.method} ${url.pathname} ${what}`, { cause: error, timedOut });
        }
        await sleep(retryDelayMs(attempt + 1, this.#retry, null), options.signal);
        continue;
      }
      const requestId = response.headers.get("x-request-id") ?? undefined;
      if (response.ok) {
        const meta: ResponseMeta = {
          requestId,
          statusCode: response.status,
          headers: response.headers,
          idempotentReplayed: response.headers.get("idempotent-replayed") === "true",
          idempotencyKey,
        };
        let data: T;
        try {
          // A report (`text/csv`) is its text; everything else the service answers is JSON.
          data = (
            CSV.test(response.headers.get("content-type") ?? "")
              ? text
              : text === ""
                ? undefined
                : JSON.parse(text)
          ) as T;
        } catch (error) {
          throw new InvalidResponseError(response.status, text, requestId, error);
        }
        return { data, meta };
      }
      if (attempt < retries && isRetryableStatus(response.status)) {
        await sleep(
          retryDelayMs(attempt + 1, this.#retry, response.headers.get("retry-after")),
          options.signal,
        );
        continue;
      }
      throw apiErrorOf(response.status, problemOf(text, response.status), requestId, response.headers);
    }
  }
}

const CSV = /^text\/csv\b/i;

function problemOf(text: string, status: number): Record<string, unknown> {
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === "object") return parsed as Record<string, unknown>;
  } catch {
    // Not JSON (a proxy's page): the status says what happened.
  }
  return { detail: text.slice(0, 200) || `HTTP ${status}` };
}
