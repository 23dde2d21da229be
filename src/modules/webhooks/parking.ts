import { and, eq, isNotNull } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Tx } from "../../platform/db/index.ts";
import { WEBHOOK_DELIVERY_JOB, type WebhookDeliveryJob } from "./jobs.ts";
import { webhookDeliveries, webhookEndpoints } from "./tables.ts";

/*
 * A disabled endpoint's queued deliveries wait, as Stripe's do: an attempt that comes due while it
 * is disabled is not made; the delivery is parked (`parked_at`) and its job ends. Enabling the
 * endpoint sends each parked delivery a new job. Both sides hold the endpoint's row lock, so an
 * enable either comes first (the job sees it and attempts) or waits for the parking to commit
 * (and then finds the delivery parked): no delivery is left parked under an enabled endpoint.
 */

/**
 * Parks the delivery if its endpoint is disabled, answering whether it did; false means the
 * endpoint was enabled meanwhile (or is gone, with the delivery), so the attempt goes ahead.
 */
export async function parkIfDisabled(
  deps: Pick<Deps, "db" | "now">,
  deliveryId: string,
  endpointId: string,
): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const [endpoint] = await tx
      .select({ enabled: webhookEndpoints.enabled })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpointId))
      .for("share");
    if (!endpoint || endpoint.enabled) return false;
    await tx
      .update(webhookDeliveries)
      .set({ parkedAt: deps.now() })
      .where(eq(webhookDeliveries.id, deliveryId));
    return true;
  });
}

/**
 * Sends every parked delivery of the endpoint a new job, in the transaction that enables it (and
 * holds its row lock): they are attempted at once, then retried on the usual schedule.
 */
export async function resumeParked(deps: Pick<Deps, "jobs" | "now">, tx: Tx, endpointId: string) {
  const resumed = await tx
    .update(webhookDeliveries)
    .set({ parkedAt: null, updatedAt: deps.now() })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), isNotNull(webhookDeliveries.parkedAt)))
    .returning({ id: webhookDeliveries.id });
  for (const { id } of resumed) {
    await deps.jobs.send<WebhookDeliveryJob>(tx, WEBHOOK_DELIVERY_JOB, { deliveryId: id });
  }
}
