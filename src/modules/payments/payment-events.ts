import { eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { appRecord } from "../../platform/http/app-record.ts";
import { type Page, pageOfRows } from "../../platform/http/pagination.ts";
import { requireAppRole } from "../apps/access.ts";
import { paymentEvents, payments } from "./tables.ts";

type EventRow = typeof paymentEvents.$inferSelect;

export function presentPaymentEvent(row: EventRow) {
  return {
    id: row.id,
    payment_id: row.paymentId,
    from_status: row.fromStatus,
    to_status: row.toStatus,
    actor: row.actor,
    reason: row.reason === "" ? null : row.reason,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * A payment's status changes, oldest first: its timeline as `transition` recorded it (the first
 * one, its creation, has no `from_status`). Paged as every list is; a payment has a handful.
 */
export async function listPaymentEvents(
  deps: Deps,
  actor: Principal,
  appId: string,
  paymentId: string,
  page: Page,
) {
  await requireAppRole(deps.db, actor, appId, "view");
  await appRecord(deps.db, payments, appId, paymentId, "Payment");
  const where = eq(paymentEvents.paymentId, paymentId);
  const { rows, total, neighbours } = await pageOfRows(deps, page, {
    table: paymentEvents,
    scope: where,
    newestFirst: false,
  });
  return { items: rows.map(presentPaymentEvent), total, neighbours };
}
