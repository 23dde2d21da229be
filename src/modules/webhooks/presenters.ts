import type { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from "./tables.ts";

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type EventRow = typeof webhookEvents.$inferSelect;
type AttemptRow = typeof webhookAttempts.$inferSelect;

export function presentEndpoint(row: EndpointRow, secret: string | null = null) {
  return {
    id: row.id,
    app_id: row.appId,
    url: row.url,
    events: row.events,
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
  return JSON.stringify({
    id: event.id,
    type: event.type,
    timestamp: event.createdAt.toISOString(),
    app_id: event.appId,
    data: event.data,
  });
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
