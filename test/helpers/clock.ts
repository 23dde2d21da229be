/**
 * A clock a test controls, given to the app at build (`useTestApp(env, { now: clock.now })` or
 * `buildTestApp(env, { now: clock.now })`): every service, the rate limiter and the credential cache
 * read the same one, which assigning `deps.now` after build would not reach (they keep the function
 * they were built with). It follows real time until `set` stops it or `advance` moves it on.
 */
export class FakeClock {
  #offsetMs = 0;
  #stoppedAt: number | undefined;

  constructor(start?: Date) {
    if (start) this.#stoppedAt = start.getTime();
  }

  /** The time as the app sees it; a property, so `clock.now` can be passed on unbound. */
  readonly now = (): Date => new Date(this.#stoppedAt ?? Date.now() + this.#offsetMs);

  /** Moves the clock on by `ms` (whether it stands still or runs). */
  advance(ms: number): void {
    if (this.#stoppedAt === undefined) this.#offsetMs += ms;
    else this.#stoppedAt += ms;
  }

  /** Stops the clock at `at` until `advance`, another `set` or `reset`. */
  set(at: Date): void {
    this.#stoppedAt = at.getTime();
  }

  /** Back to real time. */
  reset(): void {
    this.#stoppedAt = undefined;
    this.#offsetMs = 0;
  }
}
