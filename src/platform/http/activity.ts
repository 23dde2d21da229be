import { performance } from "node:perf_hooks";

/**
 * When this process last started or finished answering a request. The job worker of a process
 * that also serves the API reads it to give requests the first call on the machine (see
 * `Jobs.start`): a job waits for a quiet moment, up to a bound, before it runs.
 */
export class ApiActivity {
  #lastAt = Number.NEGATIVE_INFINITY;

  touch(): void {
    this.#lastAt = performance.now();
  }

  /** True if no request started or finished in the last `quietMs`. */
  quietFor(quietMs: number): boolean {
    return performance.now() - this.#lastAt >= quietMs;
  }
}
