import { EventStream, type EventStreamOptions } from "./event-stream.ts";
import {
  type Call,
  type ClientOptions,
  Http,
  type RequestOptions,
  type WithResponse,
  withResponse,
} from "./http.ts";
import type { Answered, CallInput, ItemOf, OperationId, QueryOf, Transport } from "./operation-types.ts";
import { List } from "./paging.ts";
import { OPERATIONS, type Resources, resources } from "./resources.ts";
import type { WebhookEvent } from "./webhooks.ts";

interface Described {
  method: Call["method"];
  path: string;
  idempotent?: boolean;
  page?: "array" | "envelope";
}

const describe = (id: OperationId) => (OPERATIONS as Record<string, Described>)[id] as Described;

/**
 * The service's API, grouped as the API groups it: `client.payments.create(appId, body)`. Every
 * method takes per-call options last (`idempotencyKey`, `timeoutMs`, `signal`, `maxRetries`,
 * `headers`); every answer carries `lastResponse` (request id, status, headers, replayed or not).
 * POSTs the service makes idempotent carry an Idempotency-Key (yours or one made per call) and are
 * retried safely; lists page by cursor (`for await`); failures throw subclasses of `PaymentsError`.
 */
export interface Client extends Omit<Resources, "events"> {
  events: Events;
}

/**
 * The event log: the generated `list` and `get`, typed as the events they answer (a union told
 * apart by `type`, as `verifyWebhook` answers), and `stream`, the live server-sent events.
 */
export interface Events {
  /** The app's events of the last 30 days, newest first; filter by `type` or `created[gte]`/`created[lte]`. */
  list(appId: string, query?: QueryOf<"listEvents">, options?: RequestOptions): List<WebhookEvent>;
  /** One event of the app. */
  get(appId: string, eventId: string, options?: RequestOptions): Promise<WithResponse<WebhookEvent>>;
  /**
   * The app's events as they happen (`for await`), resuming after `lastEventId` when given; the
   * connection is opened again after the last event received when it drops.
   */
  stream(appId: string, options?: EventStreamOptions): EventStream;
}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the resource groups are generated (resources.ts) and merged onto the class.
export class Client {
  readonly #http: Http;

  constructor(options: ClientOptions) {
    const http = new Http(options);
    this.#http = http;
    const transport: Transport = {
      call: async <K extends OperationId>(id: K, input: CallInput, options?: RequestOptions) => {
        const op = describe(id);
        const call: Call = {
          method: op.method,
          path: op.path,
          params: input.params,
          body: input.body,
          contentType: input.contentType,
          query: input.query as Call["query"],
          headers: input.headers,
          idempotent: op.idempotent,
        };
        const { data, meta } = await http.request<unknown>(call, options);
        // A session answered by signing up or logging in is used from now on; logging out drops it.
        if (id === "signUp" || id === "logIn") http.authenticate((data as { token: string }).token);
        if (id === "logOut") http.authenticate(undefined);
        return withResponse(data ?? {}, meta) as Answered<K>;
      },
      list: <K extends OperationId>(id: K, input: CallInput, options?: RequestOptions) => {
        const op = describe(id);
        const call: Call = {
          method: op.method,
          path: op.path,
          params: input.params,
          query: input.query as Call["query"],
          headers: input.headers,
        };
        type Item = ItemOf<K>;
        const itemsOf =
          op.page === "envelope"
            ? (answer: unknown) => (answer as { data: Item[] }).data
            : (answer: unknown) => answer as Item[];
        return new List<Item>(http, call, options, itemsOf);
      },
    };
    const generated = resources(transport);
    Object.assign(this, generated);
    this.events = {
      ...(generated.events as unknown as Omit<Events, "stream">),
      stream: (appId, options) => new EventStream(http, appId, options),
    };
  }

  /** Where this client sends its calls. */
  get baseUrl(): string {
    return this.#http.baseUrl;
  }
}
