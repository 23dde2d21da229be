import { and, asc, eq, inArray, like, type SQL } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { recordAudit } from "../../platform/audit/log.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { appRecord } from "../../platform/http/app-record.ts";
import { conflict, notFound } from "../../platform/http/errors.ts";
import { type Page, pageOfRows } from "../../platform/http/pagination.ts";
import { newId } from "../../platform/ids.ts";
import { requireAppRole } from "../apps/access.ts";
import { checkEventTypes } from "./edit.ts";
import { WEBHOOK_DELIVERY_JOB, type WebhookDeliveryJob } from "./jobs.ts";
import { presentDelivery, presentEndpoint } from "./presenters.ts";
import { previousSecretContext, secretContext } from "./rotation.ts";
import { newSigningSecret } from "./signing.ts";
import { vetUrl } from "./ssrf.ts";
import {
  type DeliveryStatus,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
  webhookEvents,
} from "./tables.ts";

// How long the old secret keeps signing after a rotation, so receivers can switch without loss.
const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

async function loadEndpoint(deps: Deps, appId: string, id: string) {
  return appRecord(deps.db, webhookEndpoints, appId, id, "Webhook endpoint");
}

export async function createEndpoint(
  deps: Deps,
  actor: Principal,
  appId: string,
  body: { url: string; events: string[]; enabled?: boolean },
) {
  await requireAppRole(deps.db, actor, appId, "edit");
  checkEventTypes(body.events);
  await vetUrl(body.url, deps.config.webhooksAllowLoopback);
  const id = newId("wh");
  const secret = newSigningSecret();
  const row = await deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(webhookEndpoints)
      .values({
        id,
        appId,
        url: body.url,
        events: body.events,
        enabled: body.enabled ?? true,
        secretSealed: deps.custody.sealText(secretContext(id), secret),
        createdAt: deps.now(),
        updatedAt: deps.now(),
      })
      .returning();
    await recordAudit(tx, actor, { appId, action: "webhook.create", targetId: id });
    return created;
  });
  return presentEndpoint(row, secret);
}

export async function listEndpoints(deps: Deps, actor: Principal, appId: string, page: Page) {
  await requireAppRole(deps.db, actor, appId, "view");
  const where = eq(webhookEndpoints.appId, appId);
  const { rows, total, neighbours } = await pageOfRows(deps, page, {
    table: webhookEndpoints,
    scope: where,
    newestFirst: true,
  });
  return { items: rows.map((row) => presentEndpoint(row)), total, neighbours };
}

export async function getEndpoint(deps: Deps, actor: Principal, appId: string, id: string) {
  await requireAppRole(deps.db, actor, appId, "view");
  return presentEndpoint(await loadEndpoint(deps, appId, id));
}

export async function deleteEndpoint(deps: Deps, actor: Principal, appId: string, id: string) {
  await requireAppRole(deps.db, actor, appId, "edit");
  await deps.db.transaction(async (tx) => {
    const deleted = await tx
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.appId, appId), eq(webhookEndpoints.id, id)))
      .returning({ id: webhookEndpoints.id });
    if (deleted.length === 0) throw notFound("Webhook endpoint");
    await recordAudit(tx, actor, { appId, action: "webhook.delete", targetId: id });
  });
}

export async function rotateSecret(deps: Deps, actor: Principal, appId: string, id: string) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const secret = newSigningSecret();
  const row = await deps.db.transaction(async (tx) => {
    const current = await appRecord(tx, webhookEndpoints, appId, id, "Webhook endpoint", "update");
    const previous = deps.custody.openText(secretContext(id), current.secretSealed);
    const [updated] = await tx
      .update(webhookEndpoints)
      .set({
        secretSealed: deps.custody.sealText(secretContext(id), secret),
        previousSecretSealed: deps.custody.sealText(previousSecretContext(id), previous),
        previousSecretExpiresAt: new Date(deps.now().getTime() + ROTATION_GRACE_MS),
        updatedAt: deps.now(),
      })
      .where(eq(webhookEndpoints.id, id))
      .returning();
    await recordAudit(tx, actor, { appId, action: "webhook.rotate_secret", targetId: id });
    return updated;
  });
  return presentEndpoint(row, secret);
}

async function presentDeliveries(deps: Deps, rows: (typeof webhookDeliveries.$inferSelect)[]) {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [events, attempts] = await Promise.all([
    deps.db
      .select()
      .from(webhookEvents)
      .where(
        inArray(
          webhookEvents.id,
          rows.map((r) => r.eventId),
        ),
      ),
    deps.db
      .select()
      .from(webhookAttempts)
      .where(inArray(webhookAttempts.deliveryId, ids))
      .orderBy(asc(webhookAttempts.attemptedAt), asc(webhookAttempts.id)),
  ]);
  const eventById = new Map(events.map((e) => [e.id, e]));
  return rows.map((row) =>
    presentDelivery(
      row,
      eventById.get(row.eventId)!,
      attempts.filter((a) => a.deliveryId === row.id),
    ),
  );
}

/** A delivery log's filters: its status, and its event's type or family (`payment.*`). */
export interface DeliveryFilters {
  status?: DeliveryStatus;
  type?: string;
}

function deliveryConditions(db: Deps["db"], appId: string, endpointId: string, filters: DeliveryFilters) {
  const conditions: SQL[] = [eq(webhookDeliveries.endpointId, endpointId)];
  if (filters.status) conditions.push(eq(webhookDeliveries.status, filters.status));
  if (filters.type) {
    const type = filters.type.endsWith(".*")
      ? like(webhookEvents.type, `${filters.type.slice(0, -1)}%`)
      : eq(webhookEvents.type, filters.type);
    // The app's events of that type: a semi-join the events' (app_id, created_at) index narrows.
    const events = db
      .select({ id: webhookEvents.id })
      .from(webhookEvents)
      .where(and(eq(webhookEvents.appId, appId), type));
    conditions.push(inArray(webhookDeliveries.eventId, events));
  }
  return and(...conditions);
}

export async function listDeliveries(
  deps: Deps,
  actor: Principal,
  appId: string,
  endpointId: string,
  page: Page,
  filters: DeliveryFilters = {},
) {
  await requireAppRole(deps.db, actor, appId, "view");
  await loadEndpoint(deps, appId, endpointId);
  const where = deliveryConditions(deps.db, appId, endpointId, filters);
  const { rows, total, neighbours } = await pageOfRows(deps, page, {
    table: webhookDeliveries,
    scope: eq(webhookDeliveries.endpointId, endpointId),
    filter: where,
    newestFirst: true,
  });
  return { items: await presentDeliveries(deps, rows), total, neighbours };
}

/** What a replay to, or a test event for, a disabled endpoint answers (409). */
export function refuseIfDisabled(endpoint: { enabled: boolean }, what: string) {
  if (!endpoint.enabled) {
    throw conflict(`The endpoint is disabled: ${what}. Enable it first (PATCH with {"enabled": true})`);
  }
}

/**
 * Sends one delivery's event again to its endpoint, as a new delivery with its own log; not to a
 * disabled endpoint (409), which takes no new delivery.
 */
export async function replayDelivery(deps: Deps, actor: Principal, appId: string, deliveryId: string) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const row = await deps.db.transaction(async (tx) => {
    const original = await appRecord(tx, webhookDeliveries, appId, deliveryId, "Webhook delivery");
    const endpoint = await appRecord(tx, webhookEndpoints, appId, original.endpointId, "Webhook endpoint");
    refuseIfDisabled(endpoint, "it takes no new delivery, a replay neither");
    const [replay] = await tx
      .insert(webhookDeliveries)
      .values({
        id: newId("whd"),
        appId,
        endpointId: original.endpointId,
        eventId: original.eventId,
        replayOf: original.id,
        createdAt: deps.now(),
        updatedAt: deps.now(),
      })
      .returning();
    await deps.jobs.send<WebhookDeliveryJob>(tx, WEBHOOK_DELIVERY_JOB, { deliveryId: replay.id });
    await recordAudit(tx, actor, { appId, action: "webhook.replay", targetId: replay.id });
    return replay;
  });
  const [presented] = await presentDeliveries(deps, [row]);
  return presented;
}
