import { and, eq, gte, inArray, lte, ne, type SQL } from "drizzle-orm";
import type { Static } from "typebox";
import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import type { Database } from "../../platform/db/index.ts";
import { invalid, notFound } from "../../platform/http/errors.ts";
import type { Page } from "../../platform/http/pagination.ts";
import { Filters, pageOfPrepared, scopedTo } from "../../platform/http/prepared-list.ts";
import { requireAppRole } from "../apps/access.ts";
import type { Event, EventFilters } from "./event-log-schemas.ts";
import { EVENT_TYPES, TEST_EVENT_TYPE } from "./event-types.ts";
import { presentEvent } from "./presenters.ts";
import { webhookEvents } from "./tables.ts";

/*
 * The event log: every event an app emitted in the last 30 days (retention.ts), whether or not an
 * endpoint listened, so a receiver that was down can catch up (Stripe's `/v1/events`). A test
 * event (`webhook.test`) is a delivery sample sent to one endpoint on request, not something that
 * happened in the app: the log leaves it out.
 */

/** What the log keeps of an app's events: all but the test events. */
const notTest = ne(webhookEvents.type, TEST_EVENT_TYPE);

/** The app's events, test events left out: the scope every read of the log starts from. */
export function appEvents(appId: string): SQL {
  return and(eq(webhookEvents.appId, appId), notTest) as SQL;
}

/**
 * A `type` filter as a condition: one type (the type index serves it), a family `payment.*` as
 * the list of its types (no LIKE, whose index use depends on the collation), `*` as none.
 */
export function typeCondition(pattern: string | undefined): SQL | undefined {
  if (pattern === undefined || pattern === "*") return undefined;
  if (!pattern.endsWith(".*")) return eq(webhookEvents.type, pattern);
  const family = EVENT_TYPES.filter((type) => type.startsWith(pattern.slice(0, -1)));
  return inArray(webhookEvents.type, family);
}

/** An event of the log as answered: its type is one of EVENT_TYPES (test events are left out). */
const logged = (row: Parameters<typeof presentEvent>[0]) => presentEvent(row) as Static<typeof Event>;

function instant(text: string, path: string): Date {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw invalid(path, "must be a date-time such as 2026-11-26T00:00:00Z");
  return date;
}

/**
 * What the filters keep of the app's events (test events never: `notTest`), prepared by shape
 * (`pageOfPrepared`), as the payments list is. A family's types are a constant list in the
 * statement, one statement per family.
 */
function eventFilters(filters: EventFilters): Filters {
  const kept = new Filters();
  const pattern = filters.type;
  if (pattern?.endsWith(".*")) kept.fixed(`family=${pattern}`, typeCondition(pattern) as SQL);
  else if (pattern !== undefined && pattern !== "*")
    kept.add("type", (type) => eq(webhookEvents.type, type), pattern);
  const from = filters["created[gte]"];
  const to = filters["created[lte]"];
  if (from) kept.add("from", (at) => gte(webhookEvents.createdAt, at), instant(from, "/query/created[gte]"));
  if (to) kept.add("to", (at) => lte(webhookEvents.createdAt, at), instant(to, "/query/created[lte]"));
  return kept;
}

const logColumns = {
  id: webhookEvents.id,
  type: webhookEvents.type,
  createdAt: webhookEvents.createdAt,
  appId: webhookEvents.appId,
  data: webhookEvents.data,
};
const eventsPage = (db: Database) => db.select(logColumns).from(webhookEvents).$dynamic();

/** A page of the app's events, newest first, on the (app_id, created_at, id) index. */
export async function listEvents(
  deps: Deps,
  actor: Principal,
  appId: string,
  page: Page,
  filters: EventFilters,
) {
  await requireAppRole(deps.db, actor, appId, "view");
  const { rows, total, neighbours } = await pageOfPrepared(
    deps,
    page,
    {
      name: "events_list",
      table: webhookEvents,
      ...scopedTo(webhookEvents.appId, appId, eventFilters(filters), { kept: notTest }),
      newestFirst: true,
    },
    eventsPage,
    (r) => r.id,
  );
  return { items: rows.map(logged), total, neighbours };
}

export async function getEvent(deps: Deps, actor: Principal, appId: string, eventId: string) {
  await requireAppRole(deps.db, actor, appId, "view");
  const [row] = await deps.db
    .select()
    .from(webhookEvents)
    .where(and(appEvents(appId), eq(webhookEvents.id, eventId)));
  if (!row) throw notFound("Event");
  return logged(row);
}
