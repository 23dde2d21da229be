import type { Deps } from "../../deps.ts";
import type { JobDefinition } from "../../platform/jobs/index.ts";
import { attemptDelivery } from "./deliver.ts";

export interface WebhookDeliveryJob {
  deliveryId: string;
}

export const WEBHOOK_DELIVERY_JOB = "webhooks.deliver";

// pg-boss's backoff from 2 s doubles with jitter (2-4 s, 4-8 s, …) up to the 15-minute cap:
// 16 attempts span about two hours before the delivery is marked failed.
const RETRY_LIMIT = 15;

/** Sends one delivery; a receiver that fails or does not answer fails the job, so it is retried. */
export function webhookDeliveryJob(
  deps: Pick<Deps, "db" | "config" | "custody" | "now" | "faults">,
): JobDefinition<WebhookDeliveryJob> {
  return {
    name: WEBHOOK_DELIVERY_JOB,
    retryLimit: RETRY_LIMIT,
    retryDelaySeconds: 2,
    async handle(data, meta) {
      const ok = await attemptDelivery(deps, data.deliveryId, meta.retryCount >= RETRY_LIMIT);
      if (!ok && meta.retryCount < RETRY_LIMIT) {
        throw new Error(`Webhook delivery ${data.deliveryId} was not accepted; retrying`);
      }
    },
  };
}
