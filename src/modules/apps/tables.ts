import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { Role } from "../../platform/auth/principal.ts";
import { userPrimaryKey } from "../users/references.ts";

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
    // Members must have two-factor on to act in the app (their sessions get 403 until they do).
    requireTwoFactor: boolean("require_two_factor").notNull().default(false),
    // What shoppers see on the hosted pages instead of `name`, when set (docs/payments.md, Hosted pages).
    displayName: text("display_name"),
    // `#rrggbb`, lower case: the one value a page's stylesheet takes from the app, so the column
    // itself refuses anything else (the API checks it first; this holds for every other writer).
    accentColor: text("accent_color"),
    // The uploaded icon's media type (`image/png`, `image/jpeg`, `image/webp`); null for no icon.
    // Its bytes are in `app_icons`, so that reading an app never carries them.
    iconType: text("icon_type"),
    // Raised by every upload and removal: the icon's URL carries it (`?v=`), so a new icon is a new
    // URL and the old one may be cached for good.
    iconVersion: integer("icon_version").notNull().default(0),
    // Raised by a trigger whenever a row a new payment is decided on changes: the app's prices,
    // triggers, wallets, members, sellers, webhook endpoints and their users (migration 0023).
    // The row's version therefore stands for all of them, and a create's guard reads this one row
    // (payments/context.ts). Nothing reads the number itself.
    contextVersion: bigint("context_version", { mode: "number" }).notNull().default(0),
    // The user who created the app; answered as `App.user`.
    createdBy: text("created_by").notNull().references(userPrimaryKey),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("apps_created_by_idx").on(t.createdBy),
    check("apps_accent_color_check", sql`${t.accentColor} ~ '^#[0-9a-f]{6}$'`),
    check("apps_icon_type_check", sql`${t.iconType} in ('image/png', 'image/jpeg', 'image/webp')`),
  ],
);

const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => "bytea",
  // node-postgres answers a Buffer, PGlite a Uint8Array: one type for the code above.
  fromDriver: (value) => Buffer.from(value),
});

/**
 * An app's uploaded icon (at most 256 KB, checked by its first bytes): a table of its own, so
 * every statement that selects an app row stays small. Its media type and version are the app's
 * (`apps.icon_type`, `apps.icon_version`); it goes with the app.
 */
export const appIcons = pgTable("app_icons", {
  appId: text("app_id")
    .primaryKey()
    .references(() => apps.id, { onDelete: "cascade" }),
  content: bytea("content").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

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
  /** The user ids of the app's owners when it was deleted: they may still refund its payments. */
  owners: jsonb("owners").$type<string[]>().notNull().default([]),
});

/**
 * Who may act in an app, with which role: read by every module's access check (apps/access.ts),
 * so it lives with the apps rather than in the members module, which manages it (invitations,
 * roles) and builds on the apps.
 */
export const members = pgTable(
  "members",
  {
    id: text("id").primaryKey(),
    appId: text("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    // Null until the invited person accepts.
    userId: text("user_id").references(userPrimaryKey, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role").$type<Role>().notNull(),
    // SHA-256 of the invitation token; cleared once accepted.
    inviteTokenHash: text("invite_token_hash").unique(),
    // The token sealed (custody) for the invitation mail's job to read: job data carries the
    // member's id, never the token. Cleared once the mail is sent or the invitation accepted.
    inviteTokenSealed: text("invite_token_sealed"),
    // When the pending invitation's token stops working (a resend gives a new token and time).
    inviteExpiresAt: timestamp("invite_expires_at", { withTimezone: true }),
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
