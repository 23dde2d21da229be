import { and, eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { AppError, notFound } from "../../platform/http/errors.ts";
import { requireAppRole } from "../apps/access.ts";
import { isKnownPattern } from "./event-types.ts";
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
 * Changes where an endpoint's deliveries go and which events it takes. Its secret stays (a
 * receiver moving to a new URL keeps verifying as before); deliveries already queued go to the
 * URL the endpoint has when each attempt runs.
 */
export async function updateEndpoint(
  deps: Deps,
  actor: Principal,
  appId: string,
  id: string,
  body: { url?: string; events?: string[] },
) {
  await requireAppRole(deps.db, actor, appId, "edit");
  if (body.events) checkEventTypes(body.events);
  if (body.url !== undefined) await vetUrl(body.url, deps.config.webhooksAllowLoopback);
  const [row] = await deps.db
    .update(webhookEndpoints)
    .set({
      ...(body.url !== undefined && { url: body.url }),
      ...(body.events && { events: body.events }),
      updatedAt: deps.now(),
    })
    .where(and(eq(webhookEndpoints.appId, appId), eq(webhookEndpoints.id, id)))
    .returning();
  if (!row) throw notFound("Webhook endpoint");
  return presentEndpoint(row);
}
