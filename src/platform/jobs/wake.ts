import type { PgBoss, SendOptions } from "pg-boss";
import type { Logger } from "pino";

/**
 * Wakes this process's workers when a deferred job falls due. A worker is woken by pg-boss's
 * NOTIFY the moment a job it can run now is written, and otherwise polls only every
 * JOB_POLL_SECONDS; a job written to start later (`startAfter`, or a retry after its back-off) sends
 * no NOTIFY when its time comes. So the process that deferred it keeps a timer for that moment and
 * wakes its own worker then: the job runs when due, as it did when every worker polled twice a
 * second. Another process's deferred job is found by the poll, at most JOB_POLL_SECONDS late.
 */
export interface DueWakes {
  /** The worker this process runs for `queue`, from `boss.work`; only those queues are woken. */
  worker(queue: string, workerId: string): void;
  /** A job was sent to `queue` with these options: wake the worker when it falls due. */
  sent(queue: string, options: SendOptions | undefined): void;
  /** A job of `queue` is due at `at` (ms since the epoch): wake the worker then. */
  at(queue: string, at: number): void;
  /** These jobs of `queue` failed just now: wake the worker when their retries fall due. */
  failed(queue: string, jobIds: string[]): void;
  stop(): void;
}

/** Past this the poll alone is close enough (a few seconds on hours), and no timer is kept. */
const LONGEST_TIMER_MS = 15 * 60_000;
/** Due times this close together share one timer. */
const BUCKET_MS = 50;
/**
 * How often, and how many times, a failed job is looked up until pg-boss has stored its retry: every
 * 100 ms for two seconds, then every second for a minute more (on a busy machine the embedded
 * database, one transaction at a time, can take longer to store it; a lookup that gave up left the
 * retry to the five-minute poll).
 */
const RETRY_LOOKUP_MS = 100;
const RETRY_LOOKUPS = 20;
const SLOW_RETRY_LOOKUP_MS = 1000;
const SLOW_RETRY_LOOKUPS = 60;

function dueAt(startAfter: SendOptions["startAfter"]): number | undefined {
  if (startAfter === undefined) return undefined;
  if (typeof startAfter === "number") return Date.now() + startAfter * 1000;
  const at = startAfter instanceof Date ? startAfter.getTime() : Date.parse(startAfter);
  return Number.isNaN(at) ? undefined : at;
}

export function createDueWakes(boss: PgBoss, logger: Logger): DueWakes {
  const workers = new Map<string, string>();
  // Queue and bucket -> timer: one timer per moment, however many jobs fall due in it.
  const timers = new Map<string, NodeJS.Timeout>();
  let stopped = false;

  function wakeAt(queue: string, at: number) {
    const workerId = workers.get(queue);
    if (stopped || !workerId) return;
    const bucket = Math.ceil(at / BUCKET_MS) * BUCKET_MS;
    const wait = bucket - Date.now();
    if (wait > LONGEST_TIMER_MS) return;
    const key = `${queue} ${bucket}`;
    if (timers.has(key)) return;
    const timer = setTimeout(
      () => {
        timers.delete(key);
        if (!stopped) boss.notifyWorker(workerId);
      },
      Math.max(0, wait),
    );
    timer.unref();
    timers.set(key, timer);
  }

  async function wakeForRetry(queue: string, id: string) {
    for (let look = 0; look < RETRY_LOOKUPS + SLOW_RETRY_LOOKUPS && !stopped; look++) {
      const wait = look < RETRY_LOOKUPS ? RETRY_LOOKUP_MS : SLOW_RETRY_LOOKUP_MS;
      await new Promise((resolve) => setTimeout(resolve, wait).unref());
      const job = await boss.getJobById(queue, id);
      // Still active: pg-boss has not stored the failure yet. Anything else is settled for good.
      if (job?.state === "retry") return wakeAt(queue, new Date(job.startAfter).getTime());
      if (job?.state !== "active") return;
    }
  }

  return {
    worker: (queue, workerId) => void workers.set(queue, workerId),
    sent(queue, options) {
      const at = dueAt(options?.startAfter);
      if (at !== undefined && at > Date.now()) wakeAt(queue, at);
    },
    at: (queue, at) => wakeAt(queue, at),
    failed(queue, jobIds) {
      if (!workers.has(queue)) return;
      for (const id of jobIds) {
        wakeForRetry(queue, id).catch((error) =>
          logger.debug({ err: error, queue }, "retry wake-up lookup failed; the poll will find the job"),
        );
      }
    },
    stop() {
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
