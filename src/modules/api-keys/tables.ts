import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { appPrimaryKey } from "../apps/references.ts";
import { userPrimaryKey } from "../users/references.ts";

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    appId: text("app_id").notNull().references(appPrimaryKey, { onDelete: "cascade" }),
    name: text("name").notNull(),
    // The first characters of the key, shown in lists so a key can be recognised.
    prefix: text("prefix").notNull(),
    // SHA-256 of the key: keys are 256-bit random, so a plain hash cannot be brute-forced.
    keyHash: text("key_hash").notNull().unique(),
    createdBy: text("created_by").references(userPrimaryKey, { onDelete: "set null" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("api_keys_app_idx").on(t.appId, t.createdAt, t.id)],
);
