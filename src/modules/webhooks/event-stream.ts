import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { invalid } from "../../platform/http/errors.ts";
import { openEventStream } from "../../platform/http/event-stream.ts";
import { requireAppRole } from "../apps/access.ts";
import { appEvents, typeCondition } from "./event-log.ts";
import { EVENT_RETENTION_DAYS } from "./event-log-schemas.ts";
import { presentEvent } from "./presenters.ts";
import { webhookEvents } from "./tables.ts";

/*
 * `GET /events/{app_id}/stream`: the app's events as server-sent events, live. Each open stream
 * polls the table once a second (POLL_MS) on the (app_id, tx, id) index, an empty index range
 * when nothing happened: nothing is added to the writes that emit events. LISTEN/NOTIFY was the
 * other way; a NOTIFY in the payment create's statement would take the database's one notification
 * lock at every commit, serialising the hottest write for the sake of a second of latency.
 *
 * Order and resumption: events are sent in the order of the transaction that wrote them (`tx`,
 * then id), and only once every transaction older than theirs that could write events has ended
 * (`tx` below the horizon: the snapshot's xmin, leaving out other databases' transactions). An event whose transaction commits late therefore still comes, in its place, and never
 * after the stream has moved past it, so a stream resumed after an event id (`Last-Event-ID`)
 * misses nothing and repeats nothing. A stream opened "from now" keeps the snapshot it opened in
 * and skips every event that snapshot already saw: xmin is the cluster's oldest running
 * transaction (another database's too), so transactions after it may have committed before the
 * stream opened, and their events are the past.
 */

/** How often an open stream looks for new events. */
const POLL_MS = 1000;
/** A comment line after this long without an event, so proxies and clients keep the connection. */
const HEARTBEAT_MS = 15_000;
/** Events read at a time; a full batch is followed by the next at once (catching up). */
const BATCH = 100;
/** How often the stream checks that its credential still works and still sees the app. */
const RECHECK_MS = 30_000;
/** What a client's EventSource waits before it reconnects. */
const RETRY_MS = 2000;

/**
 * Where a stream stands: after the event of transaction `tx` whose id is `id`; for a stream opened
 * from now, `before` is the snapshot it opened in, whose committed events are not sent.
 */
export interface Position {
  tx: string;
  id: string;
  before?: string;
}

/**
 * The stream's starting point, checked before any byte is sent (so a refusal is an ordinary
 * problem answer): after the event `after` names, or from now (every event of a transaction not yet
 * ended when the stream opens, so one committing as it opens is not lost).
 */
export async function streamStart(
  deps: Deps,
  actor: Principal,
  appId: string,
  after: { id: string; field: string } | undefined,
): Promise<Position> {
  await requireAppRole(deps.db, actor, appId, "view");
  if (after) {
    const [mark] = await deps.db
      .select({ tx: sql<string>`${webhookEvents.tx}::text`, id: webhookEvents.id })
      .from(webhookEvents)
      .where(and(appEvents(appId), eq(webhookEvents.id, after.id)));
    if (!mark) {
      throw invalid(
        after.field,
        `no event of this app has this id (events are kept ${EVENT_RETENTION_DAYS} days)`,
      );
    }
    return mark;
  }
  const answer = (await deps.db.execute(
    sql`select pg_snapshot_xmin(s)::text as xmin, s::text as snapshot from pg_current_snapshot() s`,
  )) as unknown as { rows: { xmin: string; snapshot: string }[] };
  const [now] = answer.rows;
  // Every id sorts after "": the position is just before the first transaction still running.
  return { tx: String(now?.xmin), id: "", before: now?.snapshot };
}

/**
 * The ids (32-bit, as `pg_stat_activity` shows them) of transactions running in the cluster's other
 * databases, which cannot write this one's events: the horizon need not wait for them. Read before
 * the events' statement takes its snapshot, so a transaction named here is still that other
 * database's if the snapshot has it running; one that started after this read is waited for, as
 * any transaction of this database is. PGlite has no other database.
 */
async function otherDatabasesXids(deps: Deps): Promise<string[]> {
  if (deps.database.engine !== "postgres") return [];
  const answer = (await deps.db.execute(
    sql`select backend_xid::text as xid from pg_stat_activity
        where backend_xid is not null and datname is distinct from current_database()`,
  )) as unknown as { rows: { xid: string }[] };
  return answer.rows.map((row) => row.xid);
}

/**
 * Below it, every transaction that could write this database's events has ended: the oldest
 * running transaction not known to be another database's, else the snapshot's xmax. A long
 * transaction in another database of the cluster (a report, a bulk load) does not hold the stream.
 */
const horizon = (others: string[]) => sql`coalesce(
  (select min(x) from pg_snapshot_xip(pg_current_snapshot()) x
    where (x::text::numeric % 4294967296) <> all(${`{${others.join(",")}}`}::numeric[])),
  pg_snapshot_xmax(pg_current_snapshot()))`;

/** The next events after `position`, of transactions that have all ended, in stream order. */
async function eventsAfter(deps: Deps, appId: string, type: SQL | undefined, position: Position) {
  const others = await otherDatabasesXids(deps);
  return deps.db
    .select({
      id: webhookEvents.id,
      type: webhookEvents.type,
      createdAt: webhookEvents.createdAt,
      appId: webhookEvents.appId,
      data: webhookEvents.data,
      tx: sql<string>`${webhookEvents.tx}::text`,
    })
    .from(webhookEvents)
    .where(
      and(
        appEvents(appId),
        type,
        sql`(${webhookEvents.tx}, ${webhookEvents.id}) > (${position.tx}::xid8, ${position.id})`,
        sql`${webhookEvents.tx} < ${horizon(others)}`,
        position.before === undefined
          ? undefined
          : sql`not pg_visible_in_snapshot(${webhookEvents.tx}, ${position.before}::pg_snapshot)`,
      ),
    )
    .orderBy(asc(webhookEvents.tx), asc(webhookEvents.id))
    .limit(BATCH);
}

export interface StreamOptions {
  appId: string;
  /** The `type` filter (a type, `prefix.*` or `*`). */
  type: string | undefined;
  position: Position;
  /** Whether the caller may still read the app (credential not revoked, still a member). */
  allowed: () => Promise<boolean>;
}

/**
 * Sends the events after `options.position`, then every new one, until the client goes, the
 * credential stops working, or `stop` (the app's shutdown) is called. Answers `stop`.
 */
export function streamEvents(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  options: StreamOptions,
): () => void {
  const raw = openEventStream(request, reply, RETRY_MS);
  const type = typeCondition(options.type);
  let position = options.position;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    wake?.();
    if (!raw.writableEnded) raw.end();
  };
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, ms);
    });
  // Waits until the socket has taken what was written: a slow client is not buffered without end.
  const drained = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
      raw.once("drain", resolve);
    });
  // The answer's close: the client went (or the stream ended); the request's own close comes as
  // soon as its (empty) body has been read.
  raw.on("close", stop);

  void (async () => {
    let lastWrite = Date.now();
    let lastCheck = Date.now();
    try {
      while (!stopped) {
        if (Date.now() - lastCheck >= RECHECK_MS) {
          lastCheck = Date.now();
          if (!(await options.allowed())) break;
        }
        const rows = await eventsAfter(deps, options.appId, type, position);
        let flowing = true;
        for (const row of rows) {
          if (stopped) break;
          const body = JSON.stringify(presentEvent(row));
          flowing = raw.write(`id: ${row.id}\nevent: ${row.type}\ndata: ${body}\n\n`);
          position = { tx: row.tx, id: row.id, before: position.before };
          lastWrite = Date.now();
        }
        if (!flowing && !stopped) await drained();
        if (rows.length === BATCH) continue;
        if (Date.now() - lastWrite >= HEARTBEAT_MS) {
          raw.write(": keep-alive\n\n");
          lastWrite = Date.now();
        }
        if (!stopped) await pause(POLL_MS);
      }
    } catch (error) {
      // A stop (shutdown) may cut a read short; anything else is worth a line.
      if (!stopped) request.log.warn({ err: error }, "event stream stopped");
    } finally {
      stop();
    }
  })();
  return stop;
}
