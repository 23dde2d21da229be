import type { Call, Http, RequestOptions } from "./http.ts";

export interface PageAnswer<T> {
  data: T[];
  /** `X-Total-Count`: exact up to the service's cap, then a lower bound (`totalCapped`). */
  total: number;
  totalCapped: boolean;
  hasMore: boolean;
}

function hasNext(link: string | null): boolean {
  return link?.split(",").some((part) => /;\s*rel="?next"?/.test(part)) ?? false;
}

/**
 * A list: `await list.page()` for one page, or `for await (const item of list)` for every item,
 * page after page, by the `starting_after` cursor (no OFFSET, so rows added meanwhile never make an
 * item appear twice).
 */
export class List<T extends { id: string }> implements AsyncIterable<T> {
  readonly #http: Http;
  readonly #call: Call;
  readonly #options: RequestOptions;

  constructor(http: Http, call: Call, options: RequestOptions = {}) {
    this.#http = http;
    this.#call = call;
    this.#options = options;
  }

  async page(query: Call["query"] = {}): Promise<PageAnswer<T>> {
    const answer = await this.#http.request<T[]>(
      { ...this.#call, query: { ...this.#call.query, ...query } },
      this.#options,
    );
    return {
      data: answer.data,
      total: Number(answer.headers.get("x-total-count") ?? answer.data.length),
      totalCapped: answer.headers.get("x-total-count-capped") === "true",
      hasMore: hasNext(answer.headers.get("link")),
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
