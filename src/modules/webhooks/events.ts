import { eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { insertInto, type Params, type Tx } from "../../platform/db/index.ts";
import { newId } from "../../platform/ids.ts";
import { EVENT_TYPES, type EventType, matches } from "./event-types.ts";
import { WEBHOOK_DELIVERY_JOB, type WebhookDeliveryJob } from "./jobs.ts";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "./tables.ts";

export interface EmittedEvent {
  appId: string;
  type: EventType;
  /** The event's payload as the API presents it (plain JSON: amounts already in major units). */
  data: Record<string, unknown>;
}

/**
 * Records an event and enqueues one delivery job per endpoint subscribed to it, inside the
 * caller's transaction: the event and its deliveries commit with the change they announce, or
 * not at all. An event no endpoint listens to is not stored (nothing could deliver or replay it),
 * which keeps the payment hot path to one read here.
 */
export async function emitEvent(deps: Pick<Deps, "jobs" | "now">, tx: Tx, event: EmittedEvent) {
  if (!(EVENT_TYPES as readonly string[]).includes(event.type)) {
    throw new Error(`Unknown webhook event type ${event.type}`);
  }
  const now = deps.now();
  const endpoints = (
    await tx
      .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.appId, event.appId))
  ).filter((endpoint) => matches(endpoint.events, event.type));
  const deliveryIds: string[] = [];
  if (endpoints.length === 0) return { eventId: null, deliveryIds };
  const [row] = await tx
    .insert(webhookEvents)
    .values({ id: newId("evt"), appId: event.appId, type: event.type, data: event.data, createdAt: now })
    .returning();
  for (const endpoint of endpoints) {
    const id = newId("whd");
    await tx.insert(webhookDeliveries).values({
      id,
      appId: event.appId,
      endpointId: endpoint.id,
      eventId: row.id,
      createdAt: now,
      updatedAt: now,
    });
    await deps.jobs.send<WebhookDeliveryJob>(tx, WEBHOOK_DELIVERY_JOB, { deliveryId: id });
    deliveryIds.push(id);
  }
  return { eventId: row.id, deliveryIds };
}

/**
 * What `emitEvent` writes, as parts of the caller's single statement (data-modifying `WITH` parts
 * named `<prefix>…`), for a caller that has read the app's endpoints already: the same event row,
 * one delivery and one delivery job per subscribed endpoint, and nothing when none listens.
 */
export async function eventParts(
  deps: Pick<Deps, "jobs" | "now">,
  endpoints: readonly { id: string; events: readonly string[] }[],
  event: EmittedEvent,
  params: Params,
  prefix: string,
): Promise<string[]> {
  if (!(EVENT_TYPES as readonly string[]).includes(event.type)) {
    throw new Error(`Unknown webhook event type ${event.type}`);
  }
  const subscribed = endpoints.filter((endpoint) => matches(endpoint.events, event.type));
  if (subscribed.length === 0) return [];
  const now = deps.now();
  const eventId = newId("evt");
  const parts = [
    `${prefix}e as (${insertInto(webhookEvents, { id: eventId, appId: event.appId, type: event.type, data: event.data, createdAt: now }, params)})`,
  ];
  for (const [i, endpoint] of subscribed.entries()) {
    const id = newId("whd");
    const delivery = {
      id,
      appId: event.appId,
      endpointId: endpoint.id,
      eventId,
      createdAt: now,
      updatedAt: now,
    };
    parts.push(`${prefix}d${i} as (${insertInto(webhookDeliveries, delivery, params)})`);
    const job = await deps.jobs.sendPart<WebhookDeliveryJob>(params, WEBHOOK_DELIVERY_JOB, {
      deliveryId: id,
    });
    parts.push(`${prefix}j${i} as (${job})`);
  }
  return parts;
}
