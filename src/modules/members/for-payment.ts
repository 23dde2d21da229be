import { type Column, type SQL, sql } from "drizzle-orm";
import type { Role } from "../../platform/auth/principal.ts";
import { members } from "./tables.ts";

/**
 * The role of user `userId` (SQL, null for API keys and shoppers) in the app whose id is `appId`
 * (a column of the caller's statement), as a subquery, and the version of that membership row:
 * what the payments module's context statement reads of members (src/modules/payments/context.ts).
 * An invitation not yet accepted gives no role.
 */
export function roleForPayment(appId: Column, userId: SQL) {
  const membership = sql`from ${members} where ${members.appId} = ${appId}
    and ${members.userId} = ${userId}::text and ${members.acceptedAt} is not null`;
  return {
    role: sql<Role | null>`(select ${members.role} ${membership})`,
    version: sql`(select ${members}.xmin ${membership})`,
  };
}
