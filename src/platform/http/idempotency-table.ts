import { integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/** One row per Idempotency-Key a caller used: the request it stood for and the answer it got. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    // The app (API key) or user (session) the key belongs to: keys of different callers never meet.
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    // SHA-256 of method, path and body: the same key with another request is refused.
    requestHash: text("request_hash").notNull(),
    // `running` until the first answer is stored, then `done`.
    state: text("state").notNull(),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>(),
    lockedAt: timestamp("locked_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] })],
);
