import type { Deps } from "../../deps.ts";
import { resealColumn, sealedTextColumn } from "../../platform/crypto/reseal.ts";
import { webhookEndpoints } from "./tables.ts";

/** Bound into each sealed signing secret: the current one to its endpoint, the former one apart. */
export const secretContext = (endpointId: string) => endpointId;
export const previousSecretContext = (endpointId: string) => `${endpointId}:previous`;

/**
 * Re-seals every webhook signing secret (the current one and, during a rotation's grace period,
 * the previous one) under the current master key, for `npm run rotate-master-key`; counts secrets.
 */
export async function resealWebhookSecrets(
  deps: Pick<Deps, "db" | "custody">,
): Promise<{ resealed: number }> {
  const current = await resealColumn(
    deps.custody,
    sealedTextColumn(deps.db, webhookEndpoints, "secretSealed", secretContext),
  );
  const previous = await resealColumn(
    deps.custody,
    sealedTextColumn(deps.db, webhookEndpoints, "previousSecretSealed", previousSecretContext),
  );
  return { resealed: current + previous };
}
