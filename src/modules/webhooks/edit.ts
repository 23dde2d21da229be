import { eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { recordAudit } from "../../platform/audit/log.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { appRecord } from "../../platform/http/app-record.ts";
import { AppError } from "../../platform/http/errors.ts";
import { requireAppRole } from "../apps/access.ts";
import { isKnownPattern } from "./event-types.ts";
import { resumeParked } from "./parking.ts";
import { presentEndpoint } from "./presenters.ts";
import { vetUrl } from "./ssrf.ts";
import { webhookEndpoints } from "./tables.ts";

/** Refuses event types that are not known types or patterns, naming each by its place. */
export function checkEventTypes(events: string[]): void {
  const unknown = events.map((e, i) => ({ e, i })).filter(({ e }) => !isKnownPattern(e));
  if (unknown.length === 0) return;
  throw new AppError("validation_failed", `Unknown event types: ${unknown.map((u) => u.e).join(", ")}`, {
    errors: unknown.map(({ i }) => ({ path: `/body/events/${i}`, message: "is not a known event type" })),
  });
}

/**
 * Changes where an endpoint's deliveries go, which events it takes, and whether it takes any. Its
 * secret stays (a receiver moving to a new URL keeps verifying as before); deliveries already
 * queued go to the URL the endpoint has when each attempt runs. Disabling it stops new deliveries
 * and holds the queued ones (parking.ts); enabling it sends those at once. Each change is audited:
 * `webhook.update` (URL, events), `webhook.disable`, `webhook.enable`.
 */
export async function updateEndpoint(
  deps: Deps,
  actor: Principal,
  appId: string,
  id: string,
  body: { url?: string; events?: string[]; enabled?: boolean },
) {
  await requireAppRole(deps.db, actor, appId, "edit");
  if (body.events) checkEventTypes(body.events);
  if (body.url !== undefined) await vetUrl(body.url, deps.config.webhooksAllowLoopback);
  const row = await deps.db.transaction(async (tx) => {
    const current = await appRecord(tx, webhookEndpoints, appId, id, "Webhook endpoint", "update");
    const [updated] = await tx
      .update(webhookEndpoints)
      .set({
        ...(body.url !== undefined && { url: body.url }),
        ...(body.events && { events: body.events }),
        ...(body.enabled !== undefined && { enabled: body.enabled }),
        updatedAt: deps.now(),
      })
      .where(eq(webhookEndpoints.id, id))
      .returning();
    if (body.url !== undefined || body.events) {
      await recordAudit(tx, actor, { appId, action: "webhook.update", targetId: id });
    }
    if (body.enabled !== undefined && body.enabled !== current.enabled) {
      const action = body.enabled ? "webhook.enable" : "webhook.disable";
      await recordAudit(tx, actor, { appId, action, targetId: id });
      if (body.enabled) await resumeParked(deps, tx, id);
    }
    return updated;
  });
  return presentEndpoint(row);
}
