import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "../db/index.ts";

/** New jobs, written by this process, that make the job table's statistics worth refreshing. */
export const ANALYZE_AFTER_JOBS = 200;
/** The least time between two refreshes by one process. */
export const ANALYZE_MIN_INTERVAL_MS = 15_000;

/**
 * Keeps the planner's statistics of pg-boss's job table up to date while jobs pour in. Every fetch
 * of a batch ends in an UPDATE that joins the fetched ids back to the table; when the statistics
 * say the queue holds a handful of rows (a young table, or a queue that was quiet when the table
 * was last analysed), PostgreSQL runs that join as a bitmap scan of the queue's whole
 * `(name, created_on)` index once per fetched job, instead of one primary-key lookup each: with a
 * backlog of 1,100 jobs, 1,137 index entries read per scan, a backlog of 40,000 costing each fetch
 * some 40,000 x 8 (docs/benchmarks.md, "The pg-boss fetch"). Autovacuum analyses a table at most
 * once a minute and only after a tenth of it changed, and the embedded engine has no autovacuum at
 * all; so the process that writes jobs analyses the table itself, after every ANALYZE_AFTER_JOBS
 * jobs and at most every ANALYZE_MIN_INTERVAL_MS. An ANALYZE reads a sample (30,000 rows at the
 * default statistics target), not the table, and takes no lock that blocks reads or writes.
 */
export interface JobStatistics {
  /** `count` jobs were just written by this process. */
  wrote(count: number): void;
  stop(): Promise<void>;
}

export function createJobStatistics(db: Database, logger: Logger, now = () => Date.now()): JobStatistics {
  let written = 0;
  let lastAt = Number.NEGATIVE_INFINITY;
  let running: Promise<void> | undefined;
  let stopped = false;

  return {
    wrote(count) {
      written += count;
      if (stopped || running || written < ANALYZE_AFTER_JOBS || now() - lastAt < ANALYZE_MIN_INTERVAL_MS)
        return;
      written = 0;
      lastAt = now();
      running = db
        .execute(sql`analyze pgboss.job`)
        .then(
          () => undefined,
          (error) =>
            logger.warn({ err: error }, "could not analyse the job table; its fetch plan may be slow"),
        )
        .finally(() => {
          running = undefined;
        });
    },
    async stop() {
      stopped = true;
      await running;
    },
  };
}
