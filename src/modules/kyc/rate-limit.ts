import { AppError } from "../../platform/http/errors.ts";

/**
 * A fixed-window counter per key, in memory: enough to slow guessing and form spam on one
 * process; a fleet behind a load balancer multiplies the allowance by its size.
 */
export class RateLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(limit: number, windowMs: number, now: () => number = Date.now) {
    this.#limit = limit;
    this.#windowMs = windowMs;
    this.#now = now;
  }

  hit(key: string): void {
    const now = this.#now();
    let window = this.#windows.get(key);
    if (!window || now - window.start >= this.#windowMs) {
      if (this.#windows.size > 50_000) this.#sweep(now);
      window = { start: now, count: 0 };
      this.#windows.set(key, window);
    }
    window.count++;
    if (window.count > this.#limit) {
      const retryAfter = Math.ceil((window.start + this.#windowMs - now) / 1000);
      throw new AppError("rate_limited", "Too many requests: wait a moment and try again", {
        headers: { "retry-after": String(Math.max(1, retryAfter)) },
      });
    }
  }

  #sweep(now: number) {
    for (const [key, window] of this.#windows) {
      if (now - window.start >= this.#windowMs) this.#windows.delete(key);
    }
  }
}
