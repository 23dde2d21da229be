import { index, inet, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The audit log: one row per change a member or key made to an app. No foreign key anywhere: a
 * row outlives the app, the member, the key and the record it names (docs/accounts.md).
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: text("id").primaryKey(),
    appId: text("app_id").notNull(),
    // `user` (a member's session), `api_key`, or `operator` (a command run on the service's own
    // machine: the master-key rotation); `actorId` is the user's id, the key's id or `account@host`.
    actorType: text("actor_type").$type<"user" | "api_key" | "operator">().notNull(),
    actorId: text("actor_id").notNull(),
    // Which credential: the session's id for a user, the key's id for a key, the new master key's
    // fingerprint id for a rotation.
    credentialId: text("credential_id").notNull(),
    action: text("action").notNull(),
    targetId: text("target_id"),
    ip: inet("ip"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("audit_events_app_list_idx").on(t.appId, t.createdAt, t.id),
    // The log's action filter, in list order (created_at, id): no sort of an action's whole history.
    index("audit_events_app_action_idx").on(t.appId, t.action, t.createdAt, t.id),
  ],
);
