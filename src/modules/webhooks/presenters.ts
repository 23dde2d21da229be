import type { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from "./tables.ts";

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type EventRecord = typeof webhookEvents.$inferSelect;
type EventRow = EventRecord;
type AttemptRow = typeof webhookAttempts.$inferSelect;

/**
 * An event as every reader gets it: the body of each delivery, an item of `GET /events/{app_id}`
 * and the `data:` of its stream are this same JSON, in this key order.
 */
export function presentEvent(row: Pick<EventRecord, "id" | "type" | "createdAt" | "appId" | "data">) {
  return {
    id: row.id,
    type: row.type,
    timestamp: row.createdAt.toISOString(),
    app_id: row.appId,
    data: row.data as Record<string, unknown>,
  };
}

export function presentEndpoint(row: EndpointRow, secret: string | null = null) {
  return {
    id: row.id,
    app_id: row.appId,
    url: row.url,
    events: row.events,
    enabled: row.enabled,
    secret,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * The body every attempt of an event sends: the same bytes each time, so receivers can dedupe, and
 * the delivery log answers these same bytes as `request_body`.
 */
export function eventBody(event: EventRow): string {
  return JSON.stringify(presentEvent(event));
}

export function presentDelivery(row: DeliveryRow, event: EventRow, attempts: AttemptRow[]) {
  return {
    id: row.id,
    endpoint_id: row.endpointId,
    event: { id: event.id, type: event.type, created_at: event.createdAt.toISOString() },
    request_body: eventBody(event),
    status: row.status,
    attempt_count: row.attemptCount,
    replay_of: row.replayOf,
    delivered_at: row.deliveredAt?.toISOString() ?? null,
    attempts: attempts.map((a) => ({
      status_code: a.statusCode,
      duration_ms: a.durationMs,
      error: a.error,
      response_excerpt: a.responseExcerpt,
      attempted_at: a.attemptedAt.toISOString(),
    })),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
