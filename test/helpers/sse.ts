import assert from "node:assert/strict";

/** One server-sent event as it came over the wire. */
export interface SentEvent {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

/**
 * A server-sent event stream read with fetch, as a browser's EventSource would read it: `next()`
 * answers the next event (comments and `retry:` lines are kept in `comments`), `close()` hangs up.
 */
export class SseReader {
  readonly comments: string[] = [];
  readonly response: Response;
  #reader: ReadableStreamDefaultReader<string>;
  #controller: AbortController;
  #buffer = "";

  private constructor(response: Response, controller: AbortController) {
    this.response = response;
    this.#controller = controller;
    this.#reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  }

  static async open(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
    const controller = new AbortController();
    const response = await fetch(url, { headers, signal: controller.signal });
    return new SseReader(response, controller);
  }

  /** The next event within `timeoutMs`, or undefined once the server has ended the stream. */
  async next(timeoutMs = 20_000): Promise<SentEvent | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const cut = this.#buffer.indexOf("\n\n");
      if (cut >= 0) {
        const block = this.#buffer.slice(0, cut);
        this.#buffer = this.#buffer.slice(cut + 2);
        const fields = block.split("\n");
        const value = (name: string) =>
          fields
            .filter((line) => line.startsWith(`${name}:`))
            .map((line) => line.slice(name.length + 1).trimStart());
        const data = value("data");
        if (data.length === 0) {
          this.comments.push(block);
          continue;
        }
        return { id: value("id")[0], event: value("event")[0], data: data.join("\n") };
      }
      const left = deadline - Date.now();
      assert.ok(left > 0, "no event came in time");
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("no event came in time")), left);
      });
      try {
        const { value, done } = await Promise.race([this.#reader.read(), timeout]);
        if (done) return undefined;
        this.#buffer += value;
      } finally {
        clearTimeout(timer);
      }
    }
  }

  /** The next `count` events. */
  async take(count: number, timeoutMs = 20_000): Promise<SentEvent[]> {
    const events: SentEvent[] = [];
    while (events.length < count) {
      const event = await this.next(timeoutMs);
      assert.ok(event, `the stream ended after ${events.length} of ${count} events`);
      events.push(event);
    }
    return events;
  }

  close(): void {
    this.#controller.abort();
  }
}
