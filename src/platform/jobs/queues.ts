import type { PgBoss } from "pg-boss";

/** A registered job's queue options that come from the code and the settings. */
export interface QueueSpec {
  name: string;
  retryLimit?: number;
  retryDelaySeconds?: number;
}

/** What a queue is made with (and brought back to): retries with back-off, the job timeout, wake-ups. */
function queueOptions(spec: QueueSpec, timeoutSeconds: number) {
  return {
    retryLimit: spec.retryLimit ?? 8,
    retryDelay: spec.retryDelaySeconds ?? 2,
    retryBackoff: true,
    retryDelayMax: 15 * 60,
    expireInSeconds: timeoutSeconds,
    notify: true,
  };
}

/**
 * Makes every registered queue, or brings an existing one to its options. pg-boss's `createQueue`
 * leaves a queue that exists as it was first made, so without this a changed JOB_TIMEOUT_SECONDS,
 * or a job's new retry limit in a release, would never reach a database that already had the
 * queue. One read of the queues, then a write only for a queue that is missing or differs: a
 * restart over an up-to-date database sends one statement here instead of three a queue.
 */
export async function ensureQueues(boss: PgBoss, specs: QueueSpec[], timeoutSeconds: number): Promise<void> {
  const existing = new Map(
    (await boss.getQueues(specs.map((spec) => spec.name))).map((queue) => [queue.name, queue]),
  );
  for (const spec of specs) {
    const wanted = queueOptions(spec, timeoutSeconds);
    const queue = existing.get(spec.name);
    if (!queue) {
      await boss.createQueue(spec.name, wanted);
    } else if (
      Object.entries(wanted).some(([option, value]) => queue[option as keyof typeof wanted] !== value)
    ) {
      await boss.updateQueue(spec.name, wanted);
    }
  }
}
