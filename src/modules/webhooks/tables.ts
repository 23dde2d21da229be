import { sql } from "drizzle-orm";
import { boolean, customType, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { appPrimaryKey } from "../apps/references.ts";

export const DELIVERY_STATUSES = Object.freeze(["pending", "retrying", "succeeded", "failed"] as const);
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    appId: text("app_id").notNull().references(appPrimaryKey, { onDelete: "cascade" }),
    url: text("url").notNull(),
    // Event types or `prefix.*` patterns this endpoint receives.
    events: jsonb("events").$type<string[]>().notNull(),
    // A disabled endpoint gets no delivery of new events, and its queued ones wait (parkedAt).
    enabled: boolean("enabled").notNull().default(true),
    // The signing secret must be usable to sign, so it cannot be hashed: it is sealed with the
    // master key (AES-256-GCM, bound to this row's id).
    secretSealed: text("secret_sealed").notNull(),
    // After a rotation the old secret also signs for a while, so receivers can switch over.
    previousSecretSealed: text("previous_secret_sealed"),
    previousSecretExpiresAt: timestamp("previous_secret_expires_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhook_endpoints_app_list_idx").on(t.appId, t.createdAt, t.id)],
);

/** PostgreSQL's 64-bit transaction id, read and written as its decimal text. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => "xid8" });

/**
 * One row per event an app emits, whether or not an endpoint listens (`GET /events/{app_id}` lists
 * them; kept 30 days, retention.ts); its id is the `webhook-id` every delivery of it carries.
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: text("id").primaryKey(),
    // No foreign key (migration 0028): its check locked the app's row (FOR KEY SHARE) for every
    // event, so every create and move of an app's payments queued on that one row. An app's delete
    // leaves its events, listed nowhere, and the retention job prunes them at 30 days, the same
    // as every other app's (docs/decisions.md §17).
    appId: text("app_id").notNull(),
    type: text("type").notNull(),
    data: jsonb("data").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    // The transaction that wrote the event: the stream's order (event-stream.ts). Commit order is
    // not `created_at` order, so a reader walking `created_at` could pass an event whose
    // transaction commits late; walking transaction ids below the oldest one still running cannot.
    tx: xid8("tx").notNull().default(sql`pg_current_xact_id()`),
  },
  (t) => [
    // The list, newest first, and its `created[…]` range (keyset on created_at, id).
    index("webhook_events_app_list_idx").on(t.appId, t.createdAt, t.id),
    // The list filtered by type, in the same order.
    index("webhook_events_app_type_idx").on(t.appId, t.type, t.createdAt, t.id),
    // The stream: the app's events after a position, in commit-safe order.
    index("webhook_events_app_stream_idx").on(t.appId, t.tx, t.id),
  ],
);

/** One event sent to one endpoint; retried by its job until it succeeds or gives up. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    appId: text("app_id").notNull().references(appPrimaryKey, { onDelete: "cascade" }),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    // pending -> succeeded | retrying -> … -> failed
    status: text("status").$type<DeliveryStatus>().notNull().default("pending"),
    attemptCount: integer("attempt_count").notNull().default(0),
    // Set when this delivery is a replay of another.
    replayOf: text("replay_of"),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    // Set when an attempt came due while the endpoint was disabled: the delivery waits, with no job,
    // until the endpoint is enabled again, which sends it a new job and clears this.
    parkedAt: timestamp("parked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt, t.id),
    // The delivery log's status filter (the few failed among many succeeded), newest first.
    index("webhook_deliveries_endpoint_status_idx").on(t.endpointId, t.status, t.createdAt, t.id),
    // The deliveries waiting for their endpoint to be enabled again: few, found at once.
    index("webhook_deliveries_parked_idx").on(t.endpointId).where(sql`${t.parkedAt} is not null`),
  ],
);

export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    // Null when no HTTP answer came (refused address, connection error, timeout).
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    error: text("error"),
    // The first few hundred characters of the answer, for debugging; never more.
    responseExcerpt: text("response_excerpt"),
    attemptedAt: timestamp("attempted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attemptedAt)],
);
