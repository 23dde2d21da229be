import { and, asc, eq, gt, isNotNull } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { resealColumn, type SealedColumn } from "../../platform/crypto/reseal.ts";
import { webhookEndpoints } from "./tables.ts";

/** Bound into each sealed signing secret: the current one to its endpoint, the former one apart. */
export const secretContext = (endpointId: string) => endpointId;
export const previousSecretContext = (endpointId: string) => `${endpointId}:previous`;

function secretColumn(db: Deps["db"], which: "secretSealed" | "previousSecretSealed"): SealedColumn {
  const column = webhookEndpoints[which];
  const context = which === "secretSealed" ? secretContext : previousSecretContext;
  return {
    async page(after, limit) {
      const rows = await db
        .select({ id: webhookEndpoints.id, sealed: column })
        .from(webhookEndpoints)
        .where(and(gt(webhookEndpoints.id, after), isNotNull(column)))
        .orderBy(asc(webhookEndpoints.id))
        .limit(limit);
      return rows.map((row) => ({ key: row.id, context: context(row.id), sealed: row.sealed! }));
    },
    async replace(value, next) {
      // Only if unchanged since read: a secret rotated meanwhile is already sealed under the current key.
      const updated = await db
        .update(webhookEndpoints)
        .set({ [which]: next })
        .where(and(eq(webhookEndpoints.id, value.key), eq(column, value.sealed)))
        .returning({ id: webhookEndpoints.id });
      return updated.length > 0;
    },
  };
}

/**
 * Re-seals every webhook signing secret (the current one and, during a rotation's grace period,
 * the previous one) under the current master key, for `npm run rotate-master-key`; counts secrets.
 */
export async function resealWebhookSecrets(
  deps: Pick<Deps, "db" | "custody">,
): Promise<{ resealed: number }> {
  const current = await resealColumn(deps.custody, secretColumn(deps.db, "secretSealed"));
  const previous = await resealColumn(deps.custody, secretColumn(deps.db, "previousSecretSealed"));
  return { resealed: current + previous };
}
