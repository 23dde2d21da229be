import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { Action, Principal, Role } from "../../platform/auth/principal.ts";
import { roleAllows } from "../../platform/auth/principal.ts";
import { type Database, prepared } from "../../platform/db/index.ts";
import { AppError, notFound } from "../../platform/http/errors.ts";
import { userJoin } from "../users/queries.ts";
import { apps, members } from "./tables.ts";

/**
 * The caller's role in an app, checked against `action`. An app the caller has no part in is
 * 404, never 403, so other tenants' ids are not revealed; a role that lacks the right is 403.
 */
export async function requireAppRole(
  db: Database,
  actor: Principal,
  appId: string,
  action: Action,
): Promise<Role> {
  return checkRole(await roleIn(db, actor, appId), action);
}

/** `requireAppRole` for a role already read (in a caller's own query): 404, 403 or the role. */
export function checkRole(role: Role | undefined, action: Action): Role {
  if (!role) throw notFound("App");
  if (!roleAllows(role, action)) {
    throw new AppError("forbidden", `The ${role} role may not ${action.replace("_", " ")} in this app`);
  }
  return role;
}

/**
 * A member's role with what the app's two-factor rule needs, built once per database: nearly
 * every route under an app runs it, and building and compiling it each time cost more than
 * PostgreSQL's answer (docs/benchmarks.md, "Lists built once per shape").
 */
const memberRole = (db: Database) => {
  const user = userJoin(members.userId);
  return db
    .select({ role: members.role, required: apps.requireTwoFactor, totp: user.twoFactorSince })
    .from(members)
    .innerJoin(apps, eq(apps.id, members.appId))
    .innerJoin(user.table, user.on)
    .where(
      and(
        eq(members.appId, sql.placeholder("app_id")),
        eq(members.userId, sql.placeholder("user_id")),
        isNotNull(members.acceptedAt),
      ),
    )
    .prepare("member_role");
};

async function roleIn(db: Database, actor: Principal, appId: string): Promise<Role | undefined> {
  // An API key acts for its one app, with the developer role.
  if (actor.kind === "api_key") return actor.appId === appId ? "developer" : undefined;
  const [row] = await prepared(db, "member_role", memberRole).execute({
    app_id: appId,
    user_id: actor.userId,
  });
  // The app asks its members for a second factor: a member without one may act only once they have it.
  if (row?.required && !row.totp) throw twoFactorRequired();
  return row?.role;
}

/** What the payment create's own role subquery answers for a member `twoFactorRequired` refuses. */
export const TWO_FACTOR_MISSING = "two_factor_missing";

export function twoFactorRequired() {
  return new AppError(
    "forbidden",
    "This app requires two-factor log-in: turn it on for your account (POST /users/me/two-factor) to act in it",
  );
}
