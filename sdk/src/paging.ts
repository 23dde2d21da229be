import type { Call, Http, RequestOptions, ResponseMeta } from "./http.ts";

export interface PageAnswer<T> {
  data: T[];
  /** `X-Total-Count`: exact up to the service's cap, then a lower bound (`totalCapped`). */
  total: number;
  totalCapped: boolean;
  hasMore: boolean;
  /** The page's answer metadata (request id, status, headers). */
  lastResponse: ResponseMeta;
}

function hasNext(link: string | null): boolean {
  return link?.split(",").some((part) => /;\s*rel="?next"?/.test(part)) ?? false;
}

/** How a list's answer holds its items: most lists answer a bare array. */
export type ItemsOf<T> = (answer: unknown) => T[];
const bareArray = <T>(answer: unknown) => answer as T[];

/**
 * A list: `await list.page()` for one page, or `for await (const item of list)` for every item,
 * page after page, by the `starting_after` cursor (no OFFSET, so rows added meanwhile never make an
 * item appear twice). `itemsOf` reads the items out of a list that answers them in an envelope
 * (the KYC list's `{data: [...]}`, as the interface states it).
 */
export class List<T extends { id: string }> implements AsyncIterable<T> {
  readonly #http: Http;
  readonly #call: Call;
  readonly #options: RequestOptions;
  readonly #itemsOf: ItemsOf<T>;

  constructor(http: Http, call: Call, options: RequestOptions = {}, itemsOf: ItemsOf<T> = bareArray) {
    this.#http = http;
    this.#call = call;
    this.#options = options;
    this.#itemsOf = itemsOf;
  }

  async page(query: Call["query"] = {}): Promise<PageAnswer<T>> {
    const answer = await this.#http.request<unknown>(
      { ...this.#call, query: { ...this.#call.query, ...query } },
      this.#options,
    );
    const data = this.#itemsOf(answer.data);
    const headers = answer.meta.headers;
    return {
      data,
      total: Number(headers.get("x-total-count") ?? data.length),
      totalCapped: headers.get("x-total-count-capped") === "true",
      hasMore: hasNext(headers.get("link")),
      lastResponse: answer.meta,
    };
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    const { page: _page, ...query } = this.#call.query ?? {};
    let cursor: Call["query"] = { limit: 100, ...query };
    for (;;) {
      const page = await this.page(cursor);
      yield* page.data;
      const last = page.data.at(-1);
      if (!page.hasMore || !last) return;
      cursor = { ...cursor, page: undefined, starting_after: last.id };
    }
  }

  /** Every item, up to `max` (default 10,000), in one array. */
  async toArray(max = 10_000): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) {
      items.push(item);
      if (items.length >= max) break;
    }
    return items;
  }
}
