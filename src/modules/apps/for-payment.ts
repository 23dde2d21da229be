import { type Column, eq, type SQL, sql } from "drizzle-orm";
import { type Action, ROLES, type Role, roleAllows } from "../../platform/auth/principal.ts";
import { userJoin } from "../users/queries.ts";
import { TWO_FACTOR_MISSING } from "./access.ts";
import { apps, members } from "./tables.ts";

/*
 * What a new payment reads of an app, for the payments module to put into its one context
 * statement (src/modules/payments/context.ts) instead of joining these tables itself.
 */

/**
 * The app named `appId` with its creator (whom the answer's `app.user` names): the statement's
 * first table (`table`, filtered by `where`), the creator's join, the columns selected, and the
 * version of everything a payment of the app is decided on (`version`): the app row's `xmin`,
 * which every update of the row changes, and which a change to any row a payment's context reads
 * (the app's prices, triggers, wallets, members, sellers, webhook endpoints, their users) changes
 * too, since each raises the app's `context_version` in its own transaction (migration 0023).
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
    version: sql<string>`${apps}.xmin::text`,
  };
}

/**
 * Whether user `userId` may `action` in app `appId` (both SQL), as a condition for a write that
 * does not read the role first: the role `roleForPayment` reads (so `requireAppRole`'s rule, the
 * two-factor one included) is one that allows it.
 */
export function userMayAct(appId: SQL, userId: SQL, action: Action): SQL {
  const roles = ROLES.filter((role) => roleAllows(role, action)).map((role) => sql.raw(`'${role}'`));
  return sql`(select ${roleForPayment(apps.id, userId)} from ${apps} where ${apps.id} = ${appId})
    in (${sql.join(roles, sql`, `)})`;
}

/** App `appId`'s version (`appForPayment`'s), as a subquery: for a statement that does not join the app. */
export function appVersionOf(appId: SQL): SQL<string> {
  return sql<string>`(select ${apps}.xmin::text from ${apps} where ${apps.id} = ${appId})`;
}

/**
 * True while app `appId` still has `version` (`appForPayment`'s): nothing a payment of the app is
 * decided on has changed since that version was read. One row, by its primary key.
 */
export function contextUnchanged(appId: SQL, version: SQL): SQL {
  return sql`exists (select 1 from ${apps} where ${apps.id} = ${appId} and ${apps}.xmin::text = ${version})`;
}

/**
 * The role of user `userId` (SQL, null for API keys and shoppers) in the app whose id is `appId`
 * (a column of the caller's statement, whose first table is `appForPayment`'s), as a subquery. An
 * invitation not yet accepted gives no role; a member of an app that requires two-factor log-in
 * who has none gives `TWO_FACTOR_MISSING` (`requireAppRole`'s rule, in the same statement).
 */
export function roleForPayment(appId: Column, userId: SQL) {
  const member = userJoin(members.userId);
  // `apps` here is the statement's own app row (`appForPayment`): joining it again would hide it.
  const membership = sql`from ${members} inner join ${member.table} on ${member.on}
    where ${members.appId} = ${appId} and ${members.userId} = ${userId}::text and ${members.acceptedAt} is not null`;
  // A literal, not a parameter: the statement is a prepared template (placeholders only).
  return sql<Role | typeof TWO_FACTOR_MISSING | null>`(select case
      when ${apps.requireTwoFactor} and ${member.twoFactorSince} is null then ${sql.raw(`'${TWO_FACTOR_MISSING}'`)}
      else ${members.role} end ${membership})`;
}
