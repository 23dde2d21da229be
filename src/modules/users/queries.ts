import { type Column, eq } from "drizzle-orm";
import type { Executor } from "../../platform/db/index.ts";
import { users } from "./tables.ts";

/*
 * What other modules read of users (apps, members, the sandbox inbox): they call these instead of
 * naming the users table (test/platform/layers.test.ts), and never see a password hash or a
 * two-factor secret. Each is the one statement, or the part of one, the caller ran before.
 */

/** A user as other people see them (`presentSummary`): an app's creator, a member. */
export type UserSummary = Pick<typeof users.$inferSelect, "id" | "username" | "firstName" | "lastName">;

/** The columns of a `UserSummary`, for a caller's select. */
export const userSummaryColumns = {
  id: users.id,
  username: users.username,
  firstName: users.firstName,
  lastName: users.lastName,
};

/**
 * The user whose id is `userId` (a column of the caller's statement), as a join of that
 * statement: `.innerJoin(part.table, part.on)` (or `leftJoin`), selecting `part.summary`, or
 * `part.twoFactorSince` (when they turned two-factor log-in on; null while it is off).
 */
export function userJoin(userId: Column) {
  return {
    table: users,
    on: eq(users.id, userId),
    summary: userSummaryColumns,
    twoFactorSince: users.totpEnabledAt,
  };
}

/**
 * The signed-in user `userId` as a membership needs them: who they are, their address and when
 * it was proven (null: not yet). The user exists: their credential was just resolved.
 */
export async function userForMembership(db: Executor, userId: string) {
  const [user] = await db
    .select({ ...userSummaryColumns, email: users.email, emailVerifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw new Error(`User ${userId} is missing`);
  return user;
}

/** When user `userId` turned two-factor log-in on: null while it is off, undefined for no user. */
export async function twoFactorSince(db: Executor, userId: string): Promise<Date | null | undefined> {
  const [user] = await db.select({ totp: users.totpEnabledAt }).from(users).where(eq(users.id, userId));
  return user?.totp;
}

/** When user `userId` proved their email address: null while not yet, undefined for no user. */
export async function emailVerifiedAt(db: Executor, userId: string): Promise<Date | null | undefined> {
  const [user] = await db
    .select({ verifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.id, userId));
  return user?.verifiedAt;
}

/** The name user `userId` is shown by (an invitation mail names who sent it). */
export async function usernameOf(db: Executor, userId: string): Promise<string> {
  const [user] = await db.select({ username: users.username }).from(users).where(eq(users.id, userId));
  if (!user) throw new Error(`User ${userId} is missing`);
  return user.username;
}

/** User `userId`'s email address. */
export async function emailOf(db: Executor, userId: string): Promise<string> {
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (!user) throw new Error(`User ${userId} is missing`);
  return user.email;
}
