import { boolean, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  // Stored lower-cased so uniqueness and login ignore case.
  email: text("email").notNull().unique(),
  // When the current `email` was proven by a link mailed to it; null until then, and again after
  // the address changes (docs/accounts.md says what an unverified account may do).
  emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
  username: text("username").notNull().unique(),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  passwordHash: text("password_hash").notNull(),
  role: text("role").notNull().default("user"),
  disabled: boolean("disabled").notNull().default(false),
  // The TOTP secret, sealed by custody; set when set-up starts, live once `totpEnabledAt` is set.
  totpSecretSealed: text("totp_secret_sealed"),
  totpEnabledAt: timestamp("totp_enabled_at", { withTimezone: true }),
  // The last 30-second step a code was accepted for: a code is good once, not for its whole window.
  totpLastStep: integer("totp_last_step"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // SHA-256 of the token: the token itself is never stored.
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    // Where the session was opened from, so its owner can tell their sessions apart.
    ip: text("ip"),
    userAgent: text("user_agent"),
    // Updated at most once a minute per process cache miss (docs/accounts.md, Sessions).
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** What an account token proves when presented; each is single-use and short-lived. */
export const ACCOUNT_TOKEN_PURPOSES = Object.freeze([
  "password_reset",
  "email_verification",
  "login_challenge",
] as const);
export type AccountTokenPurpose = (typeof ACCOUNT_TOKEN_PURPOSES)[number];

/**
 * Single-use tokens mailed to (or answered to) an account's holder: password reset and email
 * verification links, and the log-in challenge between the password and the second factor. Only
 * the SHA-256 of each is kept; a used token is deleted.
 */
export const accountTokens = pgTable(
  "account_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose").$type<AccountTokenPurpose>().notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    // The address a verification link proves: a link mailed to a former address proves nothing.
    email: text("email"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("account_tokens_user_idx").on(t.userId, t.purpose)],
);

/** Two-factor recovery codes: SHA-256 of each, deleted when used or when new ones are made. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("recovery_codes_user_idx").on(t.userId)],
);
