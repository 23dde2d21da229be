import { type SQL, sql } from "drizzle-orm";
import {
  type DrizzleTransactionLike,
  fromDrizzle,
  fromPglite,
  type JobResult,
  PgBoss,
  type SendOptions,
  type WorkOptions,
} from "pg-boss";
import type { Logger } from "pino";
import { type DatabaseHandle, drizzleRunner, PreparingClient, type Tx } from "../db/index.ts";
import type { ApiActivity } from "../http/activity.ts";
import { withoutParameters } from "../log.ts";
import { inJobSpan, withTraceContext } from "../tracing.ts";
import { DirectListenDb } from "./boss-db.ts";
import { createOutboxRelay, fillOutbox, outboxInsert, outboxInsertPerRow, outboxTemplate } from "./outbox.ts";
import { ensureQueues } from "./queues.ts";
import { createJobStatistics } from "./statistics.ts";
import { createDueWakes } from "./wake.ts";

/** A job kind: its queue name, retry policy and the code that performs the side effect. */
export interface JobDefinition<T extends object> {
  name: string;
  /** Retries with exponential backoff: a provider that is down is tried again later, never lost. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** Cron expression (UTC) for a job that runs periodically; pg-boss runs it once per slot cluster-wide. */
  schedule?: string;
  handle(data: T, meta: { id: string; retryCount: number }): Promise<void>;
}

export interface Jobs {
  /** Enqueues a job inside the caller's transaction, so it commits or vanishes with the change. */
  send<T extends object>(tx: Tx, name: string, data: T, options?: SendOptions): Promise<string | null>;
  /**
   * A job as a part of the caller's own statement (one of `writeIf`'s writes, in
   * src/platform/db/statements.ts): an INSERT into the job outbox, which commits exactly with the
   * caller's change and is moved into pg-boss by the relay. With `when`, the job is written only
   * if that condition holds (as `insertRow`'s). Call `relaySoon` once the statement has run, or
   * the job waits for the relay's next look (JOB_POLL_SECONDS).
   */
  sendPart<T extends object>(name: string, data: T, when?: SQL): SQL;
  /**
   * `sendPart` in a statement built once per shape and given its values per call (`withValues`):
   * the part, its job's name and data left as placeholders named after `prefix`, which `fillPart`
   * fills in for one job.
   */
  sendPartTemplate(prefix: string, when?: SQL): SQL;
  /** The values of a `sendPartTemplate` part for a job `name` with `data`, added to `into`. */
  fillPart<T extends object>(prefix: string, name: string, data: T, into: Record<string, unknown>): void;
  /**
   * `sendPart` for a number of jobs the statement itself decides: one job `name` for each row of
   * its `with` part `rows`, with `data` (a jsonb expression over that row's columns) as its data.
   */
  sendPartPerRow(name: string, rows: SQL, data: SQL): SQL;
  /** Runs the outbox relay shortly: after a statement with `sendPart` parts has committed. */
  relaySoon(): void;
  /** Moves every job waiting in the outbox into pg-boss now; answers how many (for tests). */
  drainOutbox(): Promise<number>;
  // biome-ignore lint/suspicious/noExplicitAny: a registry holds jobs of every payload type
  register(definitions: JobDefinition<any>[]): void;
  /**
   * Starts the queue and, with `work`, the worker. With `yieldTo` (the process's own API), every
   * job first waits until no request has started or finished for YIELD_QUIET_MS, for at most
   * YIELD_MAX_WAIT_MS: requests get the first call on the machine's CPU, and a burst of them
   * leaves its jobs to run right after it, yet jobs never stop, even under constant load.
   */
  start(options: { work: boolean; yieldTo?: Pick<ApiActivity, "quietFor"> }): Promise<void>;
  /**
   * Stops fetching, lets running jobs finish for up to `graceMs`, then hands the rest back failed
   * ("pg-boss shut down while active"), so another worker retries each once under its retry policy.
   */
  stop(graceMs?: number): Promise<void>;
  /** The pg-boss instance, for tests and the health check. */
  readonly boss: PgBoss;
  /**
   * Wakes this process's worker of `queue` at `at`, for a job whose start was moved through `boss`
   * (a test's clock jump brings deferred jobs forward): its wake-up was set for the old time.
   */
  wakeAt(queue: string, at: Date): void;
}

export interface JobsOptions {
  /**
   * How long a job may run before pg-boss takes its worker for dead and retries it elsewhere: the
   * bound on how late a crashed worker's job runs again.
   */
  timeoutSeconds?: number;
  /**
   * How often an idle worker and the outbox relay look for work they were not told about. New jobs
   * wake the worker at once (LISTEN/NOTIFY), so this only bounds how late a job runs whose wake-up
   * was lost, or one another process deferred (see `wake.ts`).
   */
  pollSeconds?: number;
  /**
   * The service's clock (`deps.now`). A job asked to start at a moment (`startAfter` as a date: an
   * auction's end, a hold's lapse) is written to start after the time left until that moment on
   * this clock, as a delay the queue counts on its own clock (the database's): the two agree even
   * when the clocks differ, as a test's fake clock or a skewed host's does.
   */
  now?: () => Date;
}

/** The idle look's interval when no `pollSeconds` is given, on PostgreSQL. */
const DEFAULT_POLL_SECONDS = 5;
/**
 * The same on the embedded engine, where this process is the only one with the database, so every
 * job is written here: one that can run now wakes its worker through the in-process NOTIFY, and
 * one written to start later (or a retry) through this process's own timer (`wake.ts`), which at
 * start-up also covers the deferred jobs found in the table. All the look still finds is a job that
 * was running when the process last stopped and is handed back once it expires: at most five
 * minutes late after a crash, for an idle process that costs under 1% of a core instead of 1.9%
 * (docs/benchmarks.md, "Idle cost").
 */
const EMBEDDED_POLL_SECONDS = 300;
/** A worker's poll while LISTEN/NOTIFY cannot be had (e.g. PgBouncer in transaction mode). */
const POLL_WITHOUT_NOTIFY_SECONDS = 0.5;

/** At start-up, deferred jobs due this soon get a timer (as `wake.ts` keeps for at most 15 minutes)… */
const DEFERRED_LOOKAHEAD_SECONDS = 15 * 60;
/** …and at most this many distinct due times: any further ones are found by the poll. */
const DEFERRED_AT_START = 1000;

/**
 * pg-boss's own pool, per process, beside DATABASE_POOL_SIZE: its fetches, completions and
 * maintenance (the handlers' statements use the service's pool). docs/reliability.md sizes both.
 */
const BOSS_POOL_SIZE = 5;

/**
 * Jobs a worker fetches at once, per queue and process. On PostgreSQL a job mostly waits for its
 * statements' round trips, so more side by side keep the cores busy: 16 against 8 paid 1.07 times
 * as many payments a second in `npm run bench:ab` (the lifecycle, five rounds), once the authorize
 * job also settled its payment. On PGlite every statement waits for the one connection anyway,
 * and 16 paid 0.88 as many: it stays 8 (docs/benchmarks.md, "The settle step in the authorize job").
 */
const BATCH = { postgres: 16, pglite: 8 } as const;
/** A pause in the API this long counts as quiet enough for a job (see `Jobs.start`). */
export const YIELD_QUIET_MS = 10;
/** The longest a job waits for the API to go quiet: under constant load, BATCH jobs a quarter second a queue. */
export const YIELD_MAX_WAIT_MS = 250;

/** Resolves once `activity` has been quiet for YIELD_QUIET_MS, or after YIELD_MAX_WAIT_MS. */
export async function apiQuiet(activity: Pick<ApiActivity, "quietFor">): Promise<void> {
  const deadline = Date.now() + YIELD_MAX_WAIT_MS;
  while (!activity.quietFor(YIELD_QUIET_MS) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, YIELD_QUIET_MS));
  }
}

/**
 * `startAfter` given as a moment becomes the seconds left until it on the service's clock (at
 * least 0: a moment already past runs now). Delays in seconds pass unchanged.
 */
function onQueueClock(options: SendOptions | undefined, now: (() => Date) | undefined) {
  const at = options?.startAfter;
  if (!now || at === undefined || typeof at === "number") return options;
  const moment = at instanceof Date ? at.getTime() : Date.parse(at);
  if (Number.isNaN(moment)) return options;
  const seconds = (moment - now().getTime()) / 1000;
  // pg-boss reads 0 (and less) as "no start time": the job runs at once, as it should.
  return { ...options, startAfter: seconds > 0 ? seconds : 0 };
}

export function createJobs(database: DatabaseHandle, logger: Logger, options: JobsOptions = {}): Jobs {
  // Expired (crashed) jobs are noticed by the supervisor: look as often as a job may run.
  const superviseIntervalSeconds = Math.max(1, Math.min(60, options.timeoutSeconds ?? 60));
  const monitorIntervalSeconds = superviseIntervalSeconds;
  const pollSeconds =
    options.pollSeconds ?? (database.engine === "pglite" ? EMBEDDED_POLL_SECONDS : DEFAULT_POLL_SECONDS);
  // A job written for now wakes the workers of its queue through NOTIFY (queues are created with
  // `notify`), on PostgreSQL across processes and on PGlite within the one: an idle worker then
  // needs no tight poll, which was most of an idle process's CPU (docs/benchmarks.md, "Idle cost").
  const boss =
    database.engine === "pglite"
      ? new PgBoss({
          db: fromPglite(database.pglite!),
          backend: "pglite",
          schema: "pgboss",
          useListenNotify: true,
          superviseIntervalSeconds,
          monitorIntervalSeconds,
        })
      : new PgBoss({
          // Behind a transaction-mode pooler, its LISTEN goes to the direct URL (boss-db.ts).
          ...(database.directConnectionString
            ? {
                db: new DirectListenDb(
                  { connectionString: database.connectionString!, max: BOSS_POOL_SIZE },
                  database.directConnectionString,
                ),
              }
            : // Its fetches and completions prepared, as the service's statements are.
              { connectionString: database.connectionString!, max: BOSS_POOL_SIZE, Client: PreparingClient }),
          schema: "pgboss",
          useListenNotify: true,
          superviseIntervalSeconds,
          monitorIntervalSeconds,
        });
  boss.on("error", (error) => logger.error({ err: error }, "job queue error"));
  const definitions = new Map<string, JobDefinition<object>>();
  const statistics = createJobStatistics(database.db, logger);
  const relay = createOutboxRelay(
    database.db,
    boss,
    logger,
    () => [...definitions.keys()],
    pollSeconds * 1000,
    (count) => statistics.wrote(count),
  );
  const dueWakes = createDueWakes(boss, logger);

  return {
    boss,
    register(list) {
      for (const definition of list) definitions.set(definition.name, definition);
    },
    async send(tx, name, data, given) {
      if (!definitions.has(name)) throw new Error(`No job is registered under ${name}`);
      const timing = onQueueClock(given, options.now);
      const id = await boss.send(name, withTraceContext(data), {
        ...timing,
        db: fromDrizzle(tx as unknown as DrizzleTransactionLike, sql),
      });
      dueWakes.sent(name, timing);
      statistics.wrote(1);
      return id;
    },
    sendPart(name, data, when) {
      if (!definitions.has(name)) throw new Error(`No job is registered under ${name}`);
      return outboxInsert(name, withTraceContext(data), when);
    },
    sendPartTemplate: (prefix, when) => outboxTemplate(prefix, when),
    fillPart(prefix, name, data, into) {
      if (!definitions.has(name)) throw new Error(`No job is registered under ${name}`);
      fillOutbox(prefix, name, withTraceContext(data), into);
    },
    sendPartPerRow(name, rows, data) {
      if (!definitions.has(name)) throw new Error(`No job is registered under ${name}`);
      return outboxInsertPerRow(name, rows, data, withTraceContext({}));
    },
    relaySoon: () => relay.soon(),
    drainOutbox: () => relay.drain(),
    wakeAt: (queue, at) => dueWakes.at(queue, at.getTime()),
    async start({ work, yieldTo }) {
      await boss.start();
      await ensureQueues(boss, [...definitions.values()], options.timeoutSeconds ?? 300);
      for (const definition of definitions.values()) {
        // With data of its own: pg-boss sends a schedule's job with the schedule's data, null when
        // none is given, and a handler is given an object (a job's data is never null otherwise).
        if (definition.schedule) await boss.schedule(definition.name, definition.schedule, {});
      }
      // Every process relays the outbox, the API's included: its own creates reach pg-boss at once.
      relay.start();
      if (!work) return;
      // Up to BATCH jobs a fetch (by engine), run side by side and settled one by one; while
      // fetches come back full the worker fetches again at once, so a backlog drains as fast as the
      // handlers run (with one job a fetch, every fetch would wait out the poll: two jobs a second
      // a queue).
      const workOptions = {
        pollingIntervalSeconds: Math.min(POLL_WITHOUT_NOTIFY_SECONDS, pollSeconds),
        notifyPollingIntervalSeconds: pollSeconds,
        batchSize: BATCH[database.engine],
        burstWhenBatchFull: true,
        perJobResults: true,
      } satisfies WorkOptions;
      for (const definition of definitions.values()) {
        const workerId = await boss.work<object>(definition.name, workOptions, async (batch) => {
          const results = await Promise.all(
            batch.map(async (job): Promise<JobResult> => {
              try {
                if (yieldTo) await apiQuiet(yieldTo);
                const meta = { id: job.id, retryCount: job.retryCount ?? 0 };
                // Every handler is given an object: a job queued with null data (pg-boss's default for
                // a schedule made without any, as every schedule was before it had `{}`) runs with `{}`.
                const given = (job.data as object | null) ?? {};
                await inJobSpan(definition.name, given, (data) => definition.handle(data, meta));
                return { id: job.id, status: "completed" };
              } catch (error) {
                const log = logger.child({ job: definition.name, job_id: job.id });
                log.warn({ err: error }, "job failed; pg-boss will retry it");
                const { name, message, stack } = error instanceof Error ? error : new Error(String(error));
                // Kept in the job's row: a failed statement's parameter values never are.
                const output = {
                  name,
                  message: withoutParameters(message),
                  stack: withoutParameters(stack ?? ""),
                };
                return { id: job.id, status: "failed", output };
              }
            }),
          );
          const failed = results.filter((result) => result.status === "failed").map((result) => result.id);
          if (failed.length > 0) dueWakes.failed(definition.name, failed);
          return results;
        });
        dueWakes.worker(definition.name, workerId);
      }
      // Deferred jobs already in the table (from before a restart) get their timers too.
      const deferred = await drizzleRunner(database.db)(
        sql`select distinct name, start_after as at from pgboss.job
         where state in ('created', 'retry') and start_after > now()
           and start_after < now() + make_interval(secs => ${String(DEFERRED_LOOKAHEAD_SECONDS)}::int)
         order by at limit ${String(DEFERRED_AT_START)}::int`,
      );
      for (const row of deferred) dueWakes.at(String(row.name), new Date(row.at as string | Date).getTime());
    },
    async stop(graceMs = 5000) {
      await relay.stop();
      dueWakes.stop();
      await statistics.stop();
      await boss.stop({ graceful: true, timeout: graceMs });
    },
  };
}
