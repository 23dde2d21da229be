import { performance } from "node:perf_hooks";

/**
 * When this process last started or finished answering a request, and how many it is answering
 * now. The job worker of a process that also serves the API reads it to give requests the first
 * call on the machine (see `Jobs.start`): a job waits for a quiet moment, up to a bound, before it
 * runs. A shutdown reads it to let every request in flight finish (`drainHttp`).
 */
export class ApiActivity {
  #lastAt = Number.NEGATIVE_INFINITY;
  #inFlight = 0;

  touch(): void {
    this.#lastAt = performance.now();
  }

  /** A request arrived; `done` is called once when its answer is sent or its connection closes. */
  begin(): () => void {
    this.#inFlight++;
    this.touch();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#inFlight--;
      this.touch();
    };
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** True if no request started or finished in the last `quietMs`. */
  quietFor(quietMs: number): boolean {
    return performance.now() - this.#lastAt >= quietMs;
  }
}
