import { eq, type SQL, sql } from "drizzle-orm";
import { users } from "../users/tables.ts";
import { apps } from "./tables.ts";

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
  return {
    table: apps,
    /** The app's id, for the parts joined to it. */
    id: apps.id,
    where: eq(apps.id, appId),
    creator: { table: users, on: eq(users.id, apps.createdBy) },
    columns: {
      app: apps,
      owner: { id: users.id, username: users.username, firstName: users.firstName, lastName: users.lastName },
    },
    versions: [sql`${apps}.xmin`, sql`${users}.xmin`],
  };
}
