import { and, type Column, eq, isNotNull, type SQL, sql } from "drizzle-orm";
import { type Database, type Executor, prepared } from "../../platform/db/index.ts";
import { apps, deletedApps, members } from "./tables.ts";

/*
 * What other modules read of apps (auctions, KYC, payments, prices, the sandbox inbox): they call
 * these instead of naming the apps tables (test/platform/layers.test.ts). Each is the one
 * statement, or the part of one, the caller ran before. The members module has its own part,
 * for-members.ts; the new payment's context, for-payment.ts.
 */

export type AppRow = typeof apps.$inferSelect;

/** The app `appId`, or undefined. */
export async function findApp(db: Executor, appId: string): Promise<AppRow | undefined> {
  const [app] = await db.select().from(apps).where(eq(apps.id, appId));
  return app;
}

/**
 * The app whose id is `appId` (a column of the caller's statement, or a value), as a join of that
 * statement: `.innerJoin(part.table, part.on)`, selecting `part.columns` (the whole row).
 */
export function appJoin(appId: Column | string) {
  return { table: apps, on: eq(apps.id, appId), columns: apps };
}

// Read by every quote of the hosted checkout: prepared, as `findPrice` is.
const feeTerms = (db: Database) =>
  db
    .select({ appType: apps.type, appFeeBps: apps.appFeeBps })
    .from(apps)
    .where(eq(apps.id, sql.placeholder("id")))
    .prepare("app_fee_terms");

/** What the fee split of app `appId`'s prices is checked against (docs/fees.md); undefined: no app. */
export async function appFeeTerms(db: Executor, appId: string) {
  const [app] = await prepared(db, "app_fee_terms", feeTerms).execute({ id: appId });
  return app;
}

/** Whether app `appId` links its transactions to an explorer; undefined once the app is gone. */
export async function usesExplorer(db: Executor, appId: string): Promise<boolean | undefined> {
  const [app] = await db.select({ useExplorer: apps.useExplorer }).from(apps).where(eq(apps.id, appId));
  return app?.useExplorer;
}

/** Whether user `userId` was an owner of the deleted app `appId` when it was deleted. */
export async function ownedDeletedApp(db: Executor, appId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: deletedApps.id })
    .from(deletedApps)
    .where(and(eq(deletedApps.id, appId), sql`${deletedApps.owners} @> ${JSON.stringify([userId])}::jsonb`));
  return row !== undefined;
}

/** The ids of the apps user `userId` owns, as a subquery of the caller's statement (`inArray`). */
export function appIdsOwnedBy(db: Executor, userId: string) {
  return db
    .select({ appId: members.appId })
    .from(members)
    .where(and(eq(members.userId, userId), eq(members.role, "owner"), isNotNull(members.acceptedAt)));
}

/** `appId` while that app exists, else null, decided inside the caller's statement. */
export function appIdIfExists(appId: string): SQL {
  return sql`(select ${apps.id} from ${apps} where ${apps.id} = ${appId})`;
}

/**
 * Every app's id as a subquery (`select … as id`) of the caller's statement: per-app work in one
 * statement. With `deleted`, the deleted apps' ids too, for records an app's delete leaves behind.
 */
export function everyAppId(deleted = false): SQL {
  const live = sql`select ${apps.id} as id from ${apps}`;
  return deleted ? sql`${live} union all select ${deletedApps.id} from ${deletedApps}` : live;
}
