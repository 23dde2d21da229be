import { type Column, type SQL, sql } from "drizzle-orm";
import { webhookEndpoints } from "./tables.ts";

/**
 * The enabled endpoints of the app `appId` (a column or a value of the caller's statement), as
 * `[{id, events}]`: whom `fillEventParts` writes deliveries for. What the payments module's context
 * statement reads of webhooks (src/modules/payments/context.ts), and a status change's statement.
 */
export function enabledEndpoints(appId: Column | SQL) {
  return sql<{ id: string; events: string[] }[]>`(select coalesce(json_agg(json_build_object(
      'id', ${webhookEndpoints.id}, 'events', ${webhookEndpoints.events})), '[]'::json)
      from ${webhookEndpoints} where ${webhookEndpoints.appId} = ${appId} and ${webhookEndpoints.enabled})`;
}
