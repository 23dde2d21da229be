import { sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { JobDefinition } from "../../platform/jobs/index.ts";
import { everyAppId } from "../apps/queries.ts";
import { EVENT_RETENTION_DAYS } from "./event-log-schemas.ts";
import { webhookEvents } from "./tables.ts";

const PRUNE_EVENTS_JOB = "webhooks.prune-events";

/** Rows deleted per statement: each delete is its own short transaction, never one huge one. */
const BATCH = 5000;

/**
 * Deletes the events older than EVENT_RETENTION_DAYS, their deliveries and attempts with them (the
 * foreign keys cascade; a delivery is retried for about two hours, so none is still pending).
 * Each app's old events are found on its (app_id, created_at, id) index, one app after another,
 * so no index on `created_at` alone is kept up on every event write for a job that runs hourly.
 * Deleted apps' too: an app's events have no foreign key to it (docs/decisions.md §17), so its
 * delete leaves them, unlisted, until they turn 30 days old like every other app's.
 * Answers how many events it deleted.
 */
export async function pruneEvents(deps: Pick<Deps, "db" | "now">): Promise<number> {
  const cutoff = new Date(deps.now().getTime() - EVENT_RETENTION_DAYS * 24 * 3600_000);
  let deleted = 0;
  for (;;) {
    const rows = await deps.db
      .delete(webhookEvents)
      .where(sql`${webhookEvents.id} in (
        select old.id from (${everyAppId(true)}) app cross join lateral (
          select e.id from ${webhookEvents} e
          where e.app_id = app.id and e.created_at < ${cutoff}
          order by e.created_at limit ${BATCH}
        ) old limit ${BATCH})`)
      .returning({ id: webhookEvents.id });
    deleted += rows.length;
    if (rows.length < BATCH) return deleted;
  }
}

/** Every hour: an event is deleted within the hour after it turns 30 days old. */
export function pruneEventsJob(deps: Pick<Deps, "db" | "now">): JobDefinition<object> {
  return {
    name: PRUNE_EVENTS_JOB,
    schedule: "23 * * * *",
    async handle() {
      await pruneEvents(deps);
    },
  };
}
