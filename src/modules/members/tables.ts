import { index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { Role } from "../../platform/auth/principal.ts";
import { apps } from "../apps/tables.ts";
import { users } from "../users/tables.ts";

export const members = pgTable(
  "members",
  {
    id: text("id").primaryKey(),
    appId: text("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    // Null until the invited person accepts.
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role").$type<Role>().notNull(),
    // SHA-256 of the invitation token; cleared once accepted.
    inviteTokenHash: text("invite_token_hash").unique(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("members_app_email_idx").on(t.appId, t.email),
    uniqueIndex("members_app_user_idx").on(t.appId, t.userId),
    index("members_user_idx").on(t.userId),
    index("members_app_list_idx").on(t.appId, t.createdAt, t.id),
  ],
);
