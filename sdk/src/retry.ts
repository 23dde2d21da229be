/** How a failed call is tried again. */
export interface RetryPolicy {
  /** Tries after the first; 0 turns retries off. */
  maxRetries: number;
  /** The first back-off; each next one doubles, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8_000 };

/** 429 and 5xx are worth another try; any other answer will not change by asking again. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * How long to wait before try `attempt` (1-based): the server's `Retry-After` when it gives one
 * (seconds or an HTTP date, capped at `maxDelayMs`), else exponential back-off with full jitter,
 * so many clients that failed together do not come back together.
 */
export function retryDelayMs(
  attempt: number,
  policy: RetryPolicy,
  retryAfter: string | null,
  now = Date.now(),
  random = Math.random,
): number {
  if (retryAfter) {
    const seconds = Number(retryAfter);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - now;
    if (Number.isFinite(ms)) return Math.min(Math.max(ms, 0), policy.maxDelayMs);
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
