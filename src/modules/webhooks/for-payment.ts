import { type Column, type SQL, sql } from "drizzle-orm";
import { webhookEndpoints } from "./tables.ts";

/**
 * The enabled webhook endpoints of the app whose id is `appId` (a column of the caller's
 * statement), as a subquery answering `[{id, events}]` (whom `eventParts` writes deliveries for),
 * and one version of all its endpoints, disabled ones too, which an endpoint added, changed
 * (enabled or disabled included: its xmin changes) or removed changes: what the payments module's
 * context statement reads of webhooks (src/modules/payments/context.ts).
 */
export function endpointsForPayment(appId: Column) {
  return {
    endpoints: enabledEndpoints(appId),
    version: sql`(select string_agg(${webhookEndpoints.id} || '.' || ${webhookEndpoints}.xmin::text, ' '
      order by ${webhookEndpoints.id}) from ${webhookEndpoints} where ${webhookEndpoints.appId} = ${appId})`,
  };
}

/** The enabled endpoints of the app `appId` (a column or a value of the caller's statement), as `[{id, events}]`. */
export function enabledEndpoints(appId: Column | SQL) {
  return sql<{ id: string; events: string[] }[]>`(select coalesce(json_agg(json_build_object(
      'id', ${webhookEndpoints.id}, 'events', ${webhookEndpoints.events})), '[]'::json)
      from ${webhookEndpoints} where ${webhookEndpoints.appId} = ${appId} and ${webhookEndpoints.enabled})`;
}
