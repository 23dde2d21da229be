import type { users } from "./tables.ts";

type UserRow = typeof users.$inferSelect;

export function presentProfile(user: UserRow) {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    role: user.role,
    created_at: user.createdAt.toISOString(),
    disabled: user.disabled,
    email_verified: user.emailVerifiedAt !== null,
    two_factor_enabled: user.totpEnabledAt !== null,
  };
}

export function presentSummary(user: Pick<UserRow, "id" | "username" | "firstName" | "lastName">) {
  return { id: user.id, username: user.username, first_name: user.firstName, last_name: user.lastName };
}
