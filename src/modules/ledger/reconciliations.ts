import { eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { appRecord } from "../../platform/http/app-record.ts";
import { type Page, pageOfRows } from "../../platform/http/pagination.ts";
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
  return presentRun(await appRecord(deps.db, reconciliations, appId, id, "Reconciliation"));
}

export async function listReconciliations(deps: Deps, actor: Principal, appId: string, page: Page) {
  await requireAppRole(deps.db, actor, appId, "view");
  const { rows, total, neighbours } = await pageOfRows(deps, page, {
    table: reconciliations,
    scope: eq(reconciliations.appId, appId),
    newestFirst: true,
  });
  return { items: rows.map(presentRun), total, neighbours };
}
