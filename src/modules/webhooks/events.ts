import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { fillRow, insertRow, rowTemplate, type Tx } from "../../platform/db/index.ts";
import { ExpiringMap } from "../../platform/expiring-map.ts";
import { newId } from "../../platform/ids.ts";
import { appIdIfExists } from "../apps/queries.ts";
import { EVENT_TYPES, type EventType, matches } from "./event-types.ts";
import { enabledEndpoints } from "./for-payment.ts";
import { WEBHOOK_DELIVERY_JOB, type WebhookDeliveryJob } from "./jobs.ts";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "./tables.ts";

/*
 * Two ways to emit an event, as there are two ways to send a job (`jobs.send` and `jobs.sendPart`,
 * src/platform/jobs/index.ts), and the same rule picks between them:
 * - `emitEvent` (with `jobs.send`) inside a Drizzle transaction: the usual way. It reads the app's
 *   endpoints itself and writes the event, its deliveries and their pg-boss jobs as statements of
 *   the caller's transaction. Every state change but the payment create uses it.
 * - `eventPartsTemplate` and `fillEventParts` (with `jobs.sendPartTemplate`) when the whole change
 *   is one guarded statement built once per shape (`writeIf`, src/platform/db/statements.ts; only
 *   the payment create, the hottest write: one round trip, no transaction): the same rows as
 *   writes of that statement, the jobs going to the outbox that the relay moves into pg-boss, and
 *   the caller has read the endpoints already.
 * Both decide their rows in `eventRows`, so an event is the same whichever way it was written.
 */

export interface EmittedEvent {
  appId: string;
  type: EventType;
  /** The event's payload as the API presents it (plain JSON: amounts already in major units). */
  data: Record<string, unknown>;
}

/**
 * The rows an event writes: the event itself, always (the event log, `GET /events/{app_id}` and its
 * stream, reads every event whether or not an endpoint listens), and one delivery per endpoint
 * subscribed to it. The one place that decides them, for `emitEvent` and `fillEventParts` alike.
 */
function eventRows(
  event: EmittedEvent,
  endpoints: readonly { id: string; events: readonly string[] }[],
  now: Date,
) {
  if (!(EVENT_TYPES as readonly string[]).includes(event.type)) {
    throw new Error(`Unknown webhook event type ${event.type}`);
  }
  const subscribed = endpoints.filter((endpoint) => matches(endpoint.events, event.type));
  return rowsFor(event, subscribed, now);
}

/** The event's row and one delivery row for each of `endpoints`, whatever they subscribe to. */
function rowsFor(
  event: { appId: string; type: string; data: Record<string, unknown> },
  endpoints: readonly { id: string }[],
  now: Date,
) {
  const row = { id: newId("evt"), appId: event.appId, type: event.type, data: event.data, createdAt: now };
  return { row, deliveries: deliveriesOf(row, endpoints, now) };
}

/** One delivery row of the event `row` for each of `endpoints`. */
function deliveriesOf(row: { id: string; appId: string }, endpoints: readonly { id: string }[], now: Date) {
  return endpoints.map((endpoint) => ({
    id: newId("whd"),
    appId: row.appId,
    endpointId: endpoint.id,
    eventId: row.id,
    createdAt: now,
    updatedAt: now,
  }));
}

/** Writes an event's rows and one delivery job per delivery, in the caller's transaction. */
async function writeRows(deps: Pick<Deps, "jobs">, tx: Tx, rows: ReturnType<typeof rowsFor>) {
  const [event] = await tx.insert(webhookEvents).values(rows.row).returning();
  return { event, deliveries: await writeDeliveries(deps, tx, rows.deliveries) };
}

/** Writes deliveries of an event already written, and one job each, in the caller's transaction. */
async function writeDeliveries(
  deps: Pick<Deps, "jobs">,
  tx: Tx,
  deliveries: ReturnType<typeof deliveriesOf>,
) {
  const written = [];
  for (const delivery of deliveries) {
    const [row] = await tx.insert(webhookDeliveries).values(delivery).returning();
    written.push(row);
    await deps.jobs.send<WebhookDeliveryJob>(tx, WEBHOOK_DELIVERY_JOB, { deliveryId: delivery.id });
  }
  return written;
}

/**
 * An event sent to the given endpoints only, whatever they subscribe to: the sample event an
 * integrator sends to check that an endpoint receives and verifies deliveries. It makes the same
 * rows and jobs as every other event, in the caller's transaction.
 */
export function sendEventTo(
  deps: Pick<Deps, "jobs" | "now">,
  tx: Tx,
  event: { appId: string; type: string; data: Record<string, unknown> },
  endpoints: readonly { id: string }[],
) {
  return writeRows(deps, tx, rowsFor(event, endpoints, deps.now()));
}

/**
 * Records an event and enqueues one delivery job per enabled endpoint subscribed to it, inside the
 * caller's transaction: the event and its deliveries commit with the change they announce, or
 * not at all. The event is stored even when no endpoint listens, for the event log, as long as
 * its app exists (a deleted app's log is gone with it).
 */
export async function emitEvent(deps: Pick<Deps, "jobs" | "now">, tx: Tx, event: EmittedEvent) {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.appId, event.appId), eq(webhookEndpoints.enabled, true)));
  const rows = eventRows(event, endpoints, deps.now());
  if (rows.deliveries.length === 0) {
    // Nothing to deliver: only the log keeps it, and only while the app exists. A deleted app's
    // payments still move (refunds by its former owners, a bank's return), but its log is gone
    // with it (its events are 404), so such an event is not stored.
    await tx.execute(insertRow(webhookEvents, rows.row, sql`${appIdIfExists(event.appId)} is not null`));
    return { eventId: rows.row.id, deliveryIds: [] };
  }
  await writeRows(deps, tx, rows);
  return { eventId: rows.row.id, deliveryIds: rows.deliveries.map((d) => d.id) };
}

/** An event's and a delivery's rows in templates (`rowTemplate` makes each once). */
const EVENT_KEYS = ["id", "appId", "type", "data", "createdAt"];
const DELIVERY_KEYS = ["id", "appId", "endpointId", "eventId", "createdAt", "updatedAt"];
const eventRow = (prefix: string) => rowTemplate(webhookEvents, `${prefix}.event`, EVENT_KEYS);
const deliveryRow = (prefix: string, i: number) =>
  rowTemplate(webhookDeliveries, `${prefix}.delivery${i}`, DELIVERY_KEYS);

/**
 * What `emitEvent` writes, as writes of the caller's single statement (`writeIf`'s) built once per
 * shape: the event and `deliveries` deliveries with one job each, their values left as placeholders
 * named after `prefix`, which `fillEventParts` fills in. With `when`, each is written only if that
 * condition holds.
 */
export function eventPartsTemplate(
  deps: Pick<Deps, "jobs">,
  deliveries: number,
  prefix: string,
  when?: SQL,
): SQL[] {
  const parts = [insertRow(webhookEvents, eventRow(prefix).placeholders, when)];
  for (let i = 0; i < deliveries; i++) {
    parts.push(insertRow(webhookDeliveries, deliveryRow(prefix, i).placeholders, when));
    parts.push(deps.jobs.sendPartTemplate(`${prefix}.delivery${i}.job`, when));
  }
  return parts;
}

/**
 * The values of `eventPartsTemplate`'s parts for `event`, for a caller that has read the app's
 * endpoints already (the same rows `emitEvent` writes), added to `into`. Answers how many
 * deliveries they hold: the template's shape.
 */
export function fillEventParts(
  deps: Pick<Deps, "jobs" | "now">,
  endpoints: readonly { id: string; events: readonly string[] }[],
  event: EmittedEvent,
  prefix: string,
  into: Record<string, unknown>,
): number {
  const rows = eventRows(event, endpoints, deps.now());
  learnEndpoints(event.appId, endpoints.length);
  fillRow(eventRow(prefix), rows.row, into);
  for (const [i, delivery] of rows.deliveries.entries()) {
    fillRow(deliveryRow(prefix, i), delivery, into);
    deps.jobs.fillPart<WebhookDeliveryJob>(
      `${prefix}.delivery${i}.job`,
      WEBHOOK_DELIVERY_JOB,
      { deliveryId: delivery.id },
      into,
    );
  }
  return rows.deliveries.length;
}

/**
 * How many enabled endpoints an app had when this process last read them (a create's context, a
 * move's transaction), by app: how many delivery ids a statement that writes an event's
 * deliveries itself makes ready (`eventInStatement`'s `deliveries`). Only a hint: a statement
 * finding more endpoints listening than ids writes nothing, and its caller writes the deliveries
 * in a transaction, as `emitEvent` does, which updates the number.
 */
const endpointsByApp = new ExpiringMap<string, number>({ ttlMs: 60 * 60_000, maxEntries: 10_000 });

function learnEndpoints(appId: string, count: number) {
  if (count !== endpointsByApp.get(appId)) endpointsByApp.set(appId, count);
}

/**
 * `emitEvent` as parts of the caller's single statement, for an event whose payload that statement
 * completes: `insert(completion)` writes the event, its `data` merged with `completion` (a jsonb
 * object the statement computes: a payment event's sequence number), while its app exists, as a
 * `WITH` part; `endpoints` answers the app's enabled endpoints as that statement saw them
 * (`[{id, events}]`). Give what it answered to `deliver`, in the same transaction: a delivery and
 * its job for each endpoint subscribed to the event, as `emitEvent` writes them. One statement
 * where `emitEvent` sends two (the endpoints' read and the event), and no more while no endpoint
 * listens. With `when`, the event is written only where it holds. `deliveries`: the deliveries
 * and their jobs as parts of the statement too, for a statement that runs outside a transaction.
 */
export function eventInStatement(deps: Pick<Deps, "jobs" | "now">, event: EmittedEvent) {
  const { row } = eventRows(event, [], deps.now());
  return {
    insert: (completion: SQL, when: SQL = sql`true`) => sql`insert into ${webhookEvents}
      (id, app_id, type, data, created_at)
      select ${row.id}::text, ${row.appId}::text, ${row.type}::text,
        ${JSON.stringify(row.data)}::jsonb || ${completion}, ${row.createdAt.toISOString()}::timestamptz
      where ${appIdIfExists(row.appId)} is not null and ${when}`,
    endpoints: enabledEndpoints(sql`${row.appId}::text`),
    async deliver(tx: Tx, endpoints: readonly { id: string; events: readonly string[] }[]) {
      learnEndpoints(row.appId, endpoints.length);
      const subscribed = endpoints.filter((endpoint) => matches(endpoint.events, event.type));
      if (subscribed.length === 0) return;
      await writeDeliveries(deps, tx, deliveriesOf(row, subscribed, row.createdAt));
    },
    /**
     * `deliver`'s rows as `with` parts of the caller's statement, named after `name`: `listening`
     * (to place before the parts that read it) numbers the app's enabled endpoints subscribed to
     * the event; `writes(when)` writes a delivery for each, with ids made here (a statement has no
     * id of this form to make), and its job. `fits` holds while no more endpoints listen than
     * there are ids: the statement must write nothing unless it holds. `written`: how many
     * deliveries the statement wrote, for its answer.
     */
    deliveries(name: string) {
      const listening = sql.identifier(name);
      const written = sql.identifier(`${name}_written`);
      // An app known to have no endpoint gets no id: one added since sends the move the other way.
      const ids = Array.from({ length: endpointsByApp.get(row.appId) ?? 1 }, () => newId("whd"));
      return {
        listening: sql`${listening} as (select ${webhookEndpoints.id} as endpoint_id,
          row_number() over (order by ${webhookEndpoints.id}) - 1 as n
          from ${webhookEndpoints} where ${webhookEndpoints.appId} = ${row.appId}::text
          and ${webhookEndpoints.enabled} and ${subscribedTo(row.type)})`,
        fits: sql`(select count(*) from ${listening}) <= ${ids.length}`,
        writes: (when: SQL) => [
          sql`${written} as (insert into ${webhookDeliveries}
              (id, app_id, endpoint_id, event_id, created_at, updated_at)
            select ${JSON.stringify(ids)}::jsonb ->> n::int, ${row.appId}::text, endpoint_id, ${row.id}::text,
              ${row.createdAt.toISOString()}::timestamptz, ${row.createdAt.toISOString()}::timestamptz
            from ${listening} where ${when} returning id)`,
          sql`${sql.identifier(`${name}_jobs`)} as (${deps.jobs.sendPartPerRow(
            WEBHOOK_DELIVERY_JOB,
            sql`${written}`,
            sql`jsonb_build_object('deliveryId', id)`,
          )})`,
        ],
        written: sql`(select count(*)::int from ${written})`,
      };
    },
  };
}

/** True for an endpoint row whose `events` subscribe to `type` (`matches`, as SQL). */
function subscribedTo(type: string) {
  return sql`exists (select 1 from jsonb_array_elements_text(${webhookEndpoints.events}) pattern
    where pattern = '*' or pattern = ${type}::text
      or (pattern like '%.*' and starts_with(${type}::text, left(pattern, -1))))`;
}

/** An event written by the caller's statement (`eventInStatement`). */
export type EventInStatement = ReturnType<typeof eventInStatement>;
