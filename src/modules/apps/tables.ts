import { boolean, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "../users/tables.ts";

export const apps = pgTable(
  "apps",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    type: text("type").notNull().default("individual"),
    kycReturnUrl: text("kyc_return_url"),
    useExplorer: boolean("use_explorer").notNull().default(false),
    // The app fee percent in basis points (2.5% = 250): exact, never a float.
    appFeeBps: integer("app_fee_bps").notNull().default(0),
    // The user who created the app; answered as `App.user`.
    createdBy: text("created_by")
      .notNull()
      .references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("apps_created_by_idx").on(t.createdBy)],
);

/**
 * Apps that were deleted: who, when, and the name they had. Their payments (and payment events)
 * are kept, with this id as their `app_id`; everything else of the app is gone with it.
 */
export const deletedApps = pgTable("deleted_apps", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdBy: text("created_by").notNull(),
  deletedBy: text("deleted_by").notNull(),
  deletedAt: timestamp("deleted_at", { withTimezone: true }).notNull().defaultNow(),
});
