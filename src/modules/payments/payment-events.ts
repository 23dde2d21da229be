import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { appRecord } from "../../platform/http/app-record.ts";
import type { Page } from "../../platform/http/pagination.ts";
import { pageOfPreparedRows, scopedTo } from "../../platform/http/prepared-list.ts";
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
  const { rows, total, neighbours } = await pageOfPreparedRows(deps, page, {
    name: "payment_events_list",
    table: paymentEvents,
    // A handful a payment: the first page is nearly always the whole list, and its own count.
    ...scopedTo(paymentEvents.paymentId, paymentId, undefined, { countAfterPage: true }),
    newestFirst: false,
  });
  return { items: rows.map(presentPaymentEvent), total, neighbours };
}
