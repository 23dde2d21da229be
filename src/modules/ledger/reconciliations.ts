import { and, eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { notFound } from "../../platform/http/errors.ts";
import { countUpTo, type Page, pageWindow } from "../../platform/http/pagination.ts";
import { requireAppRole } from "../apps/access.ts";
import { startRun } from "./reconcile.ts";
import { reconciliations } from "./tables.ts";

// Reconciliation runs through the API: any member starts one (it only reads and reports) and
// reads them.

export function presentRun(row: typeof reconciliations.$inferSelect) {
  return {
    id: row.id,
    status: row.status as "running" | "clean" | "mismatched",
    trigger: row.trigger as "api" | "schedule",
    payments_checked: row.paymentsChecked,
    mismatches: row.mismatches,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

export async function requestReconciliation(deps: Deps, actor: Principal, appId: string) {
  await requireAppRole(deps.db, actor, appId, "edit");
  return presentRun(await startRun(deps, appId, "api"));
}

export async function getReconciliation(deps: Deps, actor: Principal, appId: string, id: string) {
  await requireAppRole(deps.db, actor, appId, "view");
  const [row] = await deps.db
    .select()
    .from(reconciliations)
    .where(and(eq(reconciliations.appId, appId), eq(reconciliations.id, id)));
  if (!row) throw notFound("Reconciliation");
  return presentRun(row);
}

export async function listReconciliations(deps: Deps, actor: Principal, appId: string, page: Page) {
  await requireAppRole(deps.db, actor, appId, "view");
  const scope = eq(reconciliations.appId, appId);
  const window = await pageWindow(deps.db, page, {
    table: reconciliations,
    createdAt: reconciliations.createdAt,
    id: reconciliations.id,
    scope,
    newestFirst: true,
  });
  const [fetched, total] = await Promise.all([
    deps.db
      .select()
      .from(reconciliations)
      .where(and(scope, window.where))
      .orderBy(...window.orderBy)
      .limit(window.limit)
      .offset(window.offset),
    countUpTo(deps, reconciliations, scope),
  ]);
  const { rows, neighbours } = window.finish(fetched, (r) => r.id);
  return { items: rows.map(presentRun), total, neighbours };
}
