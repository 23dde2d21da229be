import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { recordAudit } from "../../platform/audit/log.ts";
import { type Principal, permissionsOf, type Role } from "../../platform/auth/principal.ts";
import { type Database, type Executor, prepared } from "../../platform/db/index.ts";
import { AppError, forbidden, invalid, notFound } from "../../platform/http/errors.ts";
import { countUpTo, type Page, pageWindow } from "../../platform/http/pagination.ts";
import { newId } from "../../platform/ids.ts";
import { bpsToPercent, percentToBps } from "../../platform/money/percent.ts";
import { presentSummary } from "../users/presenters.ts";
import { twoFactorSince, userForMembership, userJoin } from "../users/queries.ts";
import { requireUser } from "../users/service.ts";
import { requireAppRole } from "./access.ts";
import { iconPath } from "./for-pages.ts";
import type { AppRow } from "./queries.ts";
import { apps, deletedApps, members } from "./tables.ts";

export interface AppInput {
  name?: string;
  app_fee?: number;
  use_explorer?: boolean;
  type?: "individual" | "marketplace";
  kyc_return_url?: string | null;
  require_two_factor?: boolean;
  display_name?: string | null;
  accent_color?: string | null;
}

type Owner = { id: string; username: string; firstName: string; lastName: string };

/** An app as the API answers it; `publicUrl` makes its icon's URL absolute. */
export function presentApp(app: AppRow, owner: Owner, role: Role | undefined, publicUrl: string) {
  const icon = iconPath(app);
  return {
    id: app.id,
    name: app.name,
    type: app.type as "individual" | "marketplace",
    kyc_return_url: app.kycReturnUrl,
    use_explorer: app.useExplorer,
    require_two_factor: app.requireTwoFactor,
    permissions: role
      ? permissionsOf(role)
      : { can_view: false, can_edit: false, can_delete: false, can_edit_members: false },
    app_fee: bpsToPercent(app.appFeeBps),
    user: presentSummary(owner),
    is_member: role !== undefined,
    display_name: app.displayName,
    accent_color: app.accentColor,
    icon_url: icon && `${publicUrl}${icon}`,
    created_at: app.createdAt.toISOString(),
    updated_at: app.updatedAt.toISOString(),
  };
}

/** The app's creator, answered as `App.user`: a join of the statement that reads the app. */
const creator = userJoin(apps.createdBy);

/**
 * One prepared query answers an app with its creator and the caller's role, so the most-read
 * endpoint costs one round trip after authentication. `user_id` is the calling user (null for an
 * API key) and `key_app_id` the API key's app (null for a user).
 */
const appView = (db: Database) =>
  db
    .select({
      app: apps,
      owner: creator.summary,
      role: sql<Role | null>`case
        when ${sql.placeholder("key_app_id")}::text is not null
          then case when ${apps.id} = ${sql.placeholder("key_app_id")}::text then 'developer' end
        else (select ${members.role} from ${members} where ${members.appId} = ${apps.id}
          and ${members.userId} = ${sql.placeholder("user_id")}::text and ${members.acceptedAt} is not null)
        end`,
    })
    .from(apps)
    .innerJoin(creator.table, creator.on)
    .where(eq(apps.id, sql.placeholder("app_id")))
    .prepare("app_view");

async function loadView(db: Database, actor: Principal, appId: string) {
  const statement = prepared(db, "app_view", appView);
  const [row] = await statement.execute({
    app_id: appId,
    user_id: actor.kind === "user" ? actor.userId : null,
    key_app_id: actor.kind === "api_key" ? actor.appId : null,
  });
  if (!row?.role) throw notFound("App");
  return { ...row, role: row.role };
}

export async function getApp(deps: Deps, actor: Principal, appId: string) {
  const row = await loadView(deps.db, actor, appId);
  return presentApp(row.app, row.owner, row.role, deps.config.publicUrl);
}

/**
 * The app as someone with no role in it sees it inside their payment (an auction's shopper): no
 * permissions. 404 once the app is gone.
 */
export async function shopperAppView(db: Executor, appId: string, publicUrl: string) {
  const [row] = await db
    .select({ app: apps, owner: creator.summary })
    .from(apps)
    .innerJoin(creator.table, creator.on)
    .where(eq(apps.id, appId));
  if (!row) throw notFound("App");
  return presentApp(row.app, row.owner, undefined, publicUrl);
}

export const UNVERIFIED_OWNER =
  "In live mode an app's owner must have a verified email address: open the link mailed at sign-up first";

export async function createApp(deps: Deps, actor: Principal, input: AppInput & { name: string }) {
  const userId = requireUser(actor);
  const appFeeBps = input.app_fee === undefined ? 0 : percentToBps(input.app_fee, "/body/app_fee");
  return deps.db.transaction(async (tx) => {
    const [app] = await tx
      .insert(apps)
      .values({
        id: newId("app"),
        name: input.name,
        type: input.type ?? "individual",
        kycReturnUrl: input.kyc_return_url ?? null,
        useExplorer: input.use_explorer ?? false,
        appFeeBps,
        createdBy: userId,
      })
      .returning();
    const owner = await userForMembership(tx, userId);
    // Live money answers to a proven address: an unverified account owns apps in test mode only.
    if (!deps.config.sandbox && !owner.emailVerifiedAt) throw forbidden(UNVERIFIED_OWNER);
    await tx.insert(members).values({
      id: newId("mem"),
      appId: app.id,
      userId,
      email: owner.email,
      role: "owner",
      acceptedAt: app.createdAt,
    });
    await recordAudit(tx, actor, { appId: app.id, action: "app.create", targetId: app.id });
    return presentApp(app, owner, "owner", deps.config.publicUrl);
  });
}

export async function listApps(deps: Deps, actor: Principal, page: Page) {
  if (actor.kind === "api_key") {
    // A key sees its one app: a cursor can only name that app, after (or before) which nothing follows.
    const cursor = page.startingAfter ?? page.endingBefore;
    if (cursor !== undefined && cursor !== actor.appId) {
      const field = page.startingAfter !== undefined ? "starting_after" : "ending_before";
      throw invalid(`/query/${field}`, "no record of this list has this id");
    }
    const row = await loadView(deps.db, actor, actor.appId);
    const items =
      page.offset === 0 && cursor === undefined
        ? [presentApp(row.app, row.owner, "developer", deps.config.publicUrl)]
        : [];
    return { items, total: { count: 1, capped: false }, neighbours: {} };
  }
  const mine = and(eq(members.userId, actor.userId), isNotNull(members.acceptedAt));
  const window = await pageWindow(deps.db, page, {
    table: apps,
    scope: inArray(apps.id, deps.db.select({ id: members.appId }).from(members).where(mine)),
    newestFirst: true,
  });
  const [fetched, total] = await Promise.all([
    deps.db
      .select({ app: apps, owner: creator.summary, role: members.role })
      .from(members)
      .innerJoin(apps, eq(apps.id, members.appId))
      .innerJoin(creator.table, creator.on)
      .where(and(mine, window.where))
      .orderBy(...window.orderBy)
      .limit(window.limit)
      .offset(window.offset),
    countUpTo(deps, members, mine),
  ]);
  const { rows, neighbours } = window.finish(fetched, (r) => r.app.id);
  return {
    items: rows.map((r) => presentApp(r.app, r.owner, r.role, deps.config.publicUrl)),
    total,
    neighbours,
  };
}

export async function updateApp(deps: Deps, actor: Principal, appId: string, input: AppInput) {
  await requireAppRole(
    deps.db,
    actor,
    appId,
    input.require_two_factor === undefined ? "edit" : "manage_members",
  );
  if (input.require_two_factor) {
    // Requiring it without having it would shut the owner out of their own app.
    if (!(await twoFactorSince(deps.db, requireUser(actor))))
      throw new AppError("conflict", "Turn on two-factor log-in for yourself before requiring it");
  }
  const appFeeBps = input.app_fee === undefined ? undefined : percentToBps(input.app_fee, "/body/app_fee");
  await deps.db.transaction(async (tx) => {
    await tx
      .update(apps)
      .set({
        name: input.name,
        type: input.type,
        kycReturnUrl: input.kyc_return_url,
        useExplorer: input.use_explorer,
        appFeeBps,
        requireTwoFactor: input.require_two_factor,
        displayName: typeof input.display_name === "string" ? input.display_name.trim() : input.display_name,
        accentColor: input.accent_color?.toLowerCase() ?? input.accent_color,
        updatedAt: deps.now(),
      })
      .where(eq(apps.id, appId));
    await recordAudit(tx, actor, { appId, action: "app.update", targetId: appId });
  });
  return getApp(deps, actor, appId);
}

/**
 * Deletes an app and everything of it except its financial records: refused (409, with the counts
 * in `open`) while any of its money is in flight. Its payments and their events are kept, and the
 * app is recorded in `deleted_apps`; every read of the app is 404 from then on.
 */
export async function deleteApp(deps: Deps, actor: Principal, appId: string) {
  await requireAppRole(deps.db, actor, appId, "delete");
  // The app's API keys go with it (cascade); their cached resolutions must go too.
  await deps.revocations.revokeWith(deps.db, { appId }, async (tx) => {
    // Locked, then counted: what is in flight is counted after every change that was waiting on the
    // app row. A payment opened in this very instant may still be written after the count; it stays
    // pending with nothing charged, as confirming it needs the app or its price, both gone.
    const [app] = await tx.select().from(apps).where(eq(apps.id, appId)).for("update");
    if (!app) throw notFound("App");
    const { counts: open, described } = await deps.moneyInFlight(tx, appId);
    if (described) {
      throw new AppError(
        "conflict",
        `This app has money in flight (${described}): settle, cancel or refund it before deleting the app`,
        { extensions: { open } },
      );
    }
    // Its owners keep the right to refund its payments (docs/payments.md, Deleting an app).
    const owners = await tx
      .select({ userId: members.userId })
      .from(members)
      .where(and(eq(members.appId, appId), eq(members.role, "owner"), isNotNull(members.userId)));
    await tx.insert(deletedApps).values({
      owners: owners.map((o) => o.userId!),
      id: app.id,
      name: app.name,
      createdBy: app.createdBy,
      deletedBy: actor.kind === "user" ? `user:${actor.userId}` : `api_key:${actor.keyId}`,
      deletedAt: deps.now(),
    });
    await tx.delete(apps).where(eq(apps.id, appId));
    await recordAudit(tx, actor, { appId, action: "app.delete", targetId: appId });
  });
}

/** Every app's id: for an operator's command that touches all of them (the master-key rotation). */
export async function listAppIds(db: Database): Promise<string[]> {
  return (await db.select({ id: apps.id }).from(apps)).map((row) => row.id);
}
