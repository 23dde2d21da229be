import { and, eq, gte, like, lt, type SQL } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { auditEvents } from "../../platform/audit/table.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { type Page, pageOfRows } from "../../platform/http/pagination.ts";
import { requireAppRole } from "../apps/access.ts";

type AuditRow = typeof auditEvents.$inferSelect;

export interface AuditFilters {
  /** An action (`api_key.create`), or a family of them ending in `*` (`member.*`). */
  action?: string;
  /** A user's or an API key's id. */
  actor?: string;
  /** From this instant, inclusive. */
  since?: string;
  /** Before this instant. */
  until?: string;
}

function present(row: AuditRow) {
  return {
    id: row.id,
    app_id: row.appId,
    actor: { type: row.actorType, id: row.actorId },
    credential_id: row.credentialId,
    action: row.action,
    target_id: row.targetId,
    ip: row.ip,
    created_at: row.createdAt.toISOString(),
  };
}

function filtersOf(appId: string, filters: AuditFilters): SQL | undefined {
  const action = filters.action;
  return and(
    eq(auditEvents.appId, appId),
    action === undefined
      ? undefined
      : action.endsWith("*")
        ? // The family's prefix, with LIKE's own wildcards taken literally.
          like(auditEvents.action, `${action.slice(0, -1).replace(/[\\%_]/g, "\\$&")}%`)
        : eq(auditEvents.action, action),
    filters.actor === undefined ? undefined : eq(auditEvents.actorId, filters.actor),
    filters.since === undefined ? undefined : gte(auditEvents.createdAt, new Date(filters.since)),
    filters.until === undefined ? undefined : lt(auditEvents.createdAt, new Date(filters.until)),
  );
}

/** The app's audit log, newest first (owners only: it names every member's and key's doings). */
export async function listAuditEvents(
  deps: Deps,
  actor: Principal,
  appId: string,
  page: Page,
  filters: AuditFilters,
) {
  await requireAppRole(deps.db, actor, appId, "manage_members");
  const where = filtersOf(appId, filters);
  const { rows, total, neighbours } = await pageOfRows(deps, page, {
    table: auditEvents,
    scope: eq(auditEvents.appId, appId),
    filter: where,
    newestFirst: true,
  });
  return { items: rows.map(present), total, neighbours };
}
