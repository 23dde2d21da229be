import { and, eq, sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { drizzleRunner, insertRow } from "../../platform/db/index.ts";
import { newId } from "../../platform/ids.ts";
import { parkIfDisabled } from "./parking.ts";
import { eventBody } from "./presenters.ts";
import { previousSecretContext, secretContext } from "./rotation.ts";
import { type SendResult, send } from "./send.ts";
import { signatureHeader } from "./signing.ts";
import { vetUrl } from "./ssrf.ts";
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from "./tables.ts";

type DeliverDeps = Pick<Deps, "db" | "config" | "custody" | "now" | "faults">;

/**
 * What an attempt reads as from its start until its outcome is stored: left so by an attempt a
 * crash cut short (the receiver may well have had the event), so the log still counts it.
 */
export const ATTEMPT_CUT_SHORT =
  "no outcome recorded: the attempt was cut short (the process stopped before the receiver's answer was stored)";

function signingSecrets(deps: DeliverDeps, endpoint: typeof webhookEndpoints.$inferSelect): string[] {
  // Any key of the ring: between a restart with a new master key and the re-seal, deliveries go on.
  const secrets = [deps.custody.openText(secretContext(endpoint.id), endpoint.secretSealed)];
  if (
    endpoint.previousSecretSealed &&
    endpoint.previousSecretExpiresAt &&
    endpoint.previousSecretExpiresAt > deps.now()
  ) {
    secrets.push(deps.custody.openText(previousSecretContext(endpoint.id), endpoint.previousSecretSealed));
  }
  return secrets;
}

/**
 * One attempt at one delivery, recorded whatever happens. Answers whether the receiver took it
 * (2xx); the job throws otherwise so pg-boss retries it with backoff. `final` marks the last
 * attempt pg-boss will make, after which the delivery is `failed` (it can still be replayed).
 */
export async function attemptDelivery(
  deps: DeliverDeps,
  deliveryId: string,
  final: boolean,
): Promise<boolean> {
  const [found] = await deps.db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, event: webhookEvents })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.id, deliveryId));
  // The endpoint was deleted (its deliveries with it), or this delivery already went through.
  if (!found || found.delivery.status === "succeeded") return true;
  const { endpoint, event } = found;
  // A disabled endpoint's delivery waits for it to be enabled again, unattempted (parking.ts).
  if (!endpoint.enabled && (await parkIfDisabled(deps, deliveryId, endpoint.id))) return true;

  // The attempt is counted before the HTTP call, committed: a crash between the call and its
  // outcome (the receiver has the event, the log does not) still shows as an attempt. One
  // statement: the delivery's count, and the attempt only with it (a delivery deleted since the
  // read, with its endpoint, is not attempted). The delivery's row is locked by the update before
  // the attempt's foreign-key check asks for a weaker lock on it, at the statement's end: the
  // other way round the check's share lock would have to be raised, and an endpoint's delete that
  // began waiting for the row in between deadlocks with it (PostgreSQL then fails one of the two).
  const attemptId = newId("wha");
  const startedAt = deps.now();
  const counted = deps.db
    .update(webhookDeliveries)
    .set({ attemptCount: sql`${webhookDeliveries.attemptCount} + 1`, updatedAt: startedAt })
    .where(eq(webhookDeliveries.id, deliveryId))
    .returning({ id: webhookDeliveries.id });
  const attempt = insertRow(
    webhookAttempts,
    {
      id: attemptId,
      deliveryId,
      statusCode: null,
      durationMs: 0,
      error: ATTEMPT_CUT_SHORT,
      responseExcerpt: null,
      attemptedAt: startedAt,
    },
    sql`exists (select 1 from counted)`,
  );
  const begun = await drizzleRunner(deps.db)(
    sql`with counted as (${counted.getSQL()}) ${attempt} returning id`,
  );
  if (begun.length === 0) return true;

  const started = performance.now();
  const body = eventBody(event);
  const timestamp = Math.floor(deps.now().getTime() / 1000);
  let result: SendResult;
  try {
    // Resolved and checked again now: the name may point somewhere else than at registration.
    const target = await vetUrl(endpoint.url, deps.config.webhooksAllowLoopback);
    result = await send(
      target,
      {
        "webhook-id": event.id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signatureHeader(signingSecrets(deps, endpoint), event.id, timestamp, body),
        "user-agent": "payments-backend-webhooks/1",
      },
      body,
    );
  } catch (error) {
    result = { statusCode: null, excerpt: null, error: (error as Error).message };
  }
  deps.faults.crashPoint("webhook-sent");
  const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  if (!ok && !result.error) result.error = `receiver answered ${result.statusCode}`;
  const now = deps.now();
  // The delivery's row before its attempt's, as in the first statement: the order in which an
  // app's or endpoint's delete cascades to them. Attempt first, a delete that took the delivery
  // meanwhile waits for the attempt while this waits for the delivery: a deadlock, and PostgreSQL
  // fails one of the two (seen: the app's delete answered 500). The attempt's update reads the
  // delivery's (`exists`, evaluated once before its scan), so that one runs first.
  const finished = deps.db
    .update(webhookDeliveries)
    .set({
      status: ok ? "succeeded" : final ? "failed" : "retrying",
      deliveredAt: ok ? now : null,
      updatedAt: now,
    })
    .where(eq(webhookDeliveries.id, deliveryId))
    .returning({ id: webhookDeliveries.id });
  const outcome = deps.db
    .update(webhookAttempts)
    .set({
      statusCode: result.statusCode,
      durationMs: Math.round(performance.now() - started),
      error: ok ? null : result.error,
      responseExcerpt: result.excerpt,
    })
    .where(and(eq(webhookAttempts.id, attemptId), sql`exists (select 1 from finished)`));
  await drizzleRunner(deps.db)(sql`with finished as (${finished.getSQL()}) ${outcome.getSQL()}`);
  return ok;
}
