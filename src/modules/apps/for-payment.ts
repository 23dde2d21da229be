import { type Column, eq, type SQL, sql } from "drizzle-orm";
import type { Role } from "../../platform/auth/principal.ts";
import { userJoin } from "../users/queries.ts";
import { apps, members } from "./tables.ts";

/*
 * What a new payment reads of an app, for the payments module to put into its one context
 * statement (src/modules/payments/context.ts) instead of joining these tables itself.
 */

/**
 * The app named `appId` with its creator (whom the answer's `app.user` names): the statement's
 * first table (`table`, filtered by `where`), the creator's join, the columns selected, and the
 * row versions (`xmin`, which every update of a row changes) that a change to either shows in.
 */
export function appForPayment(appId: SQL) {
  const creator = userJoin(apps.createdBy);
  return {
    table: apps,
    /** The app's id, for the parts joined to it. */
    id: apps.id,
    where: eq(apps.id, appId),
    creator: { table: creator.table, on: creator.on },
    columns: { app: apps, owner: creator.summary },
    versions: [sql`${apps}.xmin`, sql`${creator.table}.xmin`],
  };
}

/**
 * The role of user `userId` (SQL, null for API keys and shoppers) in the app whose id is `appId`
 * (a column of the caller's statement), as a subquery, and the version of that membership row.
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
