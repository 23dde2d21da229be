import { ApiError, ConnectionError, InvalidResponseError, PaymentsError } from "./errors.ts";
import type { Http } from "./http.ts";
import type { EventPattern, WebhookEvent } from "./webhooks.ts";

/*
 * `client.events.stream(appId)`: the app's events as they happen, read from the service's
 * server-sent events (`GET /events/{app_id}/stream`) with `fetch`, so it runs wherever the client
 * does (EventSource cannot send an Authorization header, and Node has none before 22). A dropped
 * connection is opened again after the last event received, as EventSource does, so a `for await`
 * loop sees every event once, in order, across reconnections.
 */

export interface EventStreamOptions {
  /** Start after this event (an `evt_…` id, e.g. the `lastEventId` of an earlier stream); else from now. */
  lastEventId?: string | undefined;
  /** Only events of this type, or of a family (`payment.*`). */
  type?: EventPattern | undefined;
  /** Ends the stream: the `for await` loop stops, without an error. */
  signal?: AbortSignal | undefined;
  /** Open the stream again when the connection drops or the service ends it (default true). */
  reconnect?: boolean | undefined;
  /** Extra headers for each connection. */
  headers?: Record<string, string> | undefined;
  /**
   * Called each time a connection is open and the service streams: events from then on will come
   * (`reconnected` after a drop). A program that triggers something can wait for this first.
   */
  onOpen?: ((info: { reconnected: boolean; lastEventId: string | undefined }) => void) | undefined;
}

/** No byte for this long (the service sends a comment every 15 s): the connection is taken for dead. */
const IDLE_MS = 45_000;
/** Reconnection waits double from the service's `retry:` (2 s) up to this. */
const MAX_DELAY_MS = 30_000;

interface Message {
  id: string | undefined;
  data: string;
}

/** The messages of a server-sent event stream (the WHATWG format), as they arrive. */
async function* messages(
  body: ReadableStream<Uint8Array>,
  onBytes: () => void,
  onRetry: (ms: number) => void,
): AsyncGenerator<Message> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  let id: string | undefined;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      onBytes();
      buffer += decoder.decode(value, { stream: true });
      for (;;) {
        const end = /\r\n|\r|\n/.exec(buffer);
        // A `\r` last in the buffer may be the first half of `\r\n`: wait for the next chunk.
        if (!end || (end[0] === "\r" && end.index === buffer.length - 1)) break;
        const line = buffer.slice(0, end.index);
        buffer = buffer.slice(end.index + end[0].length);
        if (line === "") {
          if (data.length > 0) yield { id, data: data.join("\n") };
          data = [];
          continue;
        }
        if (line.startsWith(":")) continue; // a comment: the service's keep-alive
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "data") data.push(text);
        else if (field === "id" && !text.includes("\0")) id = text;
        else if (field === "retry" && /^\d+$/.test(text)) onRetry(Number(text));
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** A wait that ends early (and quietly) when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Worth opening the stream again: the connection failed, or the service was briefly unable. */
function transient(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 429 || error.status >= 500;
  return !(error instanceof PaymentsError) || error instanceof ConnectionError;
}

/**
 * The app's events, live: `for await (const event of client.events.stream(appId)) { … }`. Each
 * event is typed by its `type` (a `WebhookEvent`), the JSON its webhook deliveries carry.
 * `lastEventId` says where the stream stands: give it to a later stream to resume after it.
 * Refusals throw as any call's (`AuthenticationError`, `NotFoundError`, …); a connection that drops
 * is opened again after the last event received, unless `reconnect: false`.
 */
export class EventStream implements AsyncIterable<WebhookEvent> {
  readonly #http: Http;
  readonly #appId: string;
  readonly #options: EventStreamOptions;
  #lastEventId: string | undefined;
  #retryMs = 2000;

  constructor(http: Http, appId: string, options: EventStreamOptions = {}) {
    this.#http = http;
    this.#appId = appId;
    this.#options = options;
    this.#lastEventId = options.lastEventId;
  }

  /** The id of the last event received (or the one the stream started after). */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<WebhookEvent> {
    const outer = this.#options.signal;
    const reconnect = this.#options.reconnect ?? true;
    let failures = 0;
    let opened = false;
    while (!outer?.aborted) {
      const connection = new AbortController();
      const cut = () => connection.abort(outer?.reason);
      outer?.addEventListener("abort", cut, { once: true });
      let idle: ReturnType<typeof setTimeout> | undefined;
      const alive = () => {
        clearTimeout(idle);
        idle = setTimeout(() => connection.abort(new Error("no byte for 45 s")), IDLE_MS);
      };
      try {
        const headers: Record<string, string> = { ...this.#options.headers };
        if (this.#lastEventId !== undefined) headers["last-event-id"] = this.#lastEventId;
        const response = await this.#http.openStream(
          {
            method: "GET",
            path: "/events/{app_id}/stream",
            params: { app_id: this.#appId },
            query: { type: this.#options.type },
          },
          { headers },
          connection.signal,
        );
        failures = 0;
        alive();
        this.#options.onOpen?.({ reconnected: opened, lastEventId: this.#lastEventId });
        opened = true;
        const body = response.body;
        if (!body)
          throw new ConnectionError("The event stream answered no body", {
            cause: undefined,
            timedOut: false,
          });
        const retry = (ms: number) => {
          this.#retryMs = ms;
        };
        for await (const message of messages(body, alive, retry)) {
          let event: WebhookEvent;
          try {
            event = JSON.parse(message.data) as WebhookEvent;
          } catch (error) {
            throw new InvalidResponseError(
              200,
              message.data,
              response.headers.get("x-request-id") ?? undefined,
              error,
            );
          }
          if (message.id !== undefined) this.#lastEventId = message.id;
          yield event;
        }
        // The service ended the stream (it is shutting down, or the credential stopped working).
        if (!reconnect) return;
      } catch (error) {
        if (outer?.aborted) return;
        if (!reconnect || !transient(error)) {
          if (error instanceof PaymentsError) throw error;
          throw new ConnectionError("The event stream broke off", { cause: error, timedOut: false });
        }
        failures += 1;
      } finally {
        clearTimeout(idle);
        outer?.removeEventListener("abort", cut);
        connection.abort();
      }
      await pause(Math.min(MAX_DELAY_MS, this.#retryMs * 2 ** Math.max(0, failures - 1)), outer);
    }
  }
}
