import { inArray, type SQL, sql } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import type { Logger } from "pino";
import {
  type Database,
  drizzleRunner,
  fillRow,
  insertRow,
  rowTemplate,
  type Tx,
  textRunner,
} from "../db/index.ts";
import { jobOutbox } from "./outbox-table.ts";

/** Rows moved per transaction: one pg-boss insert per queue in the batch. */
const RELAY_BATCH = 500;
/** How soon the relay runs after a statement wrote rows. */
const SOON_MS = 5;
/** How soon the relay tries again after a move failed. */
const AFTER_FAILURE_MS = 500;

export interface OutboxRelay {
  /** Runs the relay shortly: call it once a statement that wrote outbox rows has committed. */
  soon(): void;
  /** Moves every waiting row now; answers how many moved (tests, and the relay's own loop). */
  drain(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * The outbox row for a job, as a part of the caller's own statement (see `Jobs.sendPart`); with
 * `when`, written only if that condition holds.
 * Written beside a payment, it costs one small insert instead of pg-boss's own (a JSON record
 * set, the queue row locked for its foreign key, four of its seventeen indexes filled): measured
 * with pgbench, pg-boss's insert halved the throughput of the create's statement
 * (docs/benchmarks.md). The relay inserts jobs a batch at a time, off the request.
 */
export function outboxInsert(name: string, data: object, when?: SQL): SQL {
  return insertRow(jobOutbox, { name, data }, when);
}

/**
 * One outbox row per row of the statement's `with` part `rows`, each with the data `data` (a jsonb
 * expression over that row's columns) and `extra`'s keys (the trace context).
 */
export function outboxInsertPerRow(name: string, rows: SQL, data: SQL, extra: object): SQL {
  return sql`insert into ${jobOutbox} (name, data)
    select ${name}::text, ${data} || ${JSON.stringify(extra)}::jsonb from ${rows}`;
}

const OUTBOX_KEYS = ["name", "data"];
const outboxRow = (prefix: string) => rowTemplate(jobOutbox, prefix, OUTBOX_KEYS);

/** `outboxInsert` in a template: the job's name and data are the placeholders `<prefix>.name` and `.data`. */
export function outboxTemplate(prefix: string, when?: SQL): SQL {
  return insertRow(jobOutbox, outboxRow(prefix).placeholders, when);
}

/** The values of `outboxTemplate`'s part for a job `name` with `data`, added to `into`. */
export function fillOutbox(prefix: string, name: string, data: object, into: Record<string, unknown>): void {
  fillRow(outboxRow(prefix), { name, data }, into);
}

/**
 * pg-boss's statements on `tx`, each sent as a named prepared statement: a relay's insert is the
 * same text every time for a queue, and parsing and planning it (and the outbox's delete) on every
 * move was most of their cost (docs/benchmarks.md, "The relay's statements, prepared").
 */
function namedStatements(tx: Tx) {
  const send = textRunner(tx, { named: true });
  return { executeSql: async (text: string, values: unknown[]) => ({ rows: await send(text, values) }) };
}

/**
 * Moves outbox rows into pg-boss. Each batch is one transaction: the rows are deleted and their
 * jobs inserted together, so a crash in between leaves both where they were. Rows another relay
 * is moving are skipped (`skip locked`), so every process may run one. Only rows of `queues()`
 * (the registered ones) are moved: pg-boss looks up a queue it has not seen outside the
 * transaction, which on the embedded engine's one connection would wait for ever.
 * Every writer calls `soon` once its statement has committed, so the relay's own look every
 * `pollMs` only finds rows whose writer died before that (or whose move failed): it can be slow.
 */
export function createOutboxRelay(
  db: Database,
  boss: PgBoss,
  logger: Logger,
  queues: () => string[],
  pollMs: number,
  /** Told how many jobs each batch moved into pg-boss, once it committed. */
  moved: (count: number) => void = () => {},
): OutboxRelay {
  async function moveBatch(names: string[]): Promise<number> {
    const count = await db.transaction(async (tx) => {
      const waiting = tx
        .select({ id: jobOutbox.id })
        .from(jobOutbox)
        .where(inArray(jobOutbox.name, names))
        .orderBy(jobOutbox.id)
        .limit(RELAY_BATCH)
        .for("update", { skipLocked: true });
      const take = tx
        .delete(jobOutbox)
        .where(inArray(jobOutbox.id, waiting))
        .returning({ name: jobOutbox.name, data: jobOutbox.data });
      const rows = (await drizzleRunner(tx, { named: true })(take.getSQL())) as {
        name: string;
        data: object;
      }[];
      const byQueue = new Map<string, { data: object }[]>();
      for (const row of rows) {
        const list = byQueue.get(row.name) ?? [];
        list.push({ data: row.data });
        byQueue.set(row.name, list);
      }
      for (const [name, jobs] of byQueue) await boss.insert(name, jobs, { db: namedStatements(tx) });
      return rows.length;
    });
    if (count > 0) moved(count);
    return count;
  }

  async function relay(): Promise<number> {
    const names = queues();
    try {
      return await moveBatch(names);
    } catch (error) {
      // A queue deleted behind this process's back fails its insert and so the whole batch: move
      // queue by queue, so its rows hold back only their own queue (and say so in the log).
      logger.error({ err: error }, "job outbox relay failed; moving queue by queue");
      let moved = 0;
      for (const name of names) {
        try {
          if (!(await boss.getQueue(name))) throw new Error(`Queue ${name} does not exist`);
          moved += await moveBatch([name]);
        } catch (queueError) {
          logger.error({ err: queueError, queue: name }, "job outbox rows for this queue cannot be moved");
        }
      }
      return moved;
    }
  }

  let stopped = true;
  let running = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Number.POSITIVE_INFINITY;
  let idle: Promise<void> = Promise.resolve();

  function schedule(delay: number) {
    if (stopped) return;
    if (running) {
      again ||= delay <= SOON_MS;
      return;
    }
    const at = Date.now() + delay;
    if (timer && timerAt <= at) return;
    clearTimeout(timer);
    timer = setTimeout(tick, delay);
    timerAt = at;
  }

  function tick() {
    timer = undefined;
    timerAt = Number.POSITIVE_INFINITY;
    running = true;
    again = false;
    idle = (async () => {
      let next = pollMs;
      try {
        // A full batch means more are waiting: go on at once.
        while (!stopped && (await relay()) === RELAY_BATCH);
      } catch (error) {
        logger.error({ err: error }, "job outbox relay failed; trying again shortly");
        next = AFTER_FAILURE_MS;
      } finally {
        running = false;
        schedule(again ? SOON_MS : next);
      }
    })();
  }

  return {
    soon: () => schedule(SOON_MS),
    async drain() {
      let total = 0;
      for (let moved = RELAY_BATCH; moved === RELAY_BATCH; total += moved) moved = await relay();
      return total;
    },
    start() {
      stopped = false;
      schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await idle;
    },
  };
}
