import type { WebhookEvent } from "@payments-backend/sdk";
import type { QueryKey } from "@tanstack/react-query";

/**
 * The query keys (prefixes) an event of the app's stream makes stale: what the pages show that the
 * event changed. Keyed by the event type's family (`payment`, `auction`, …): a type the service
 * adds later to a known family refreshes what its family does, one of a new family only the
 * delivery logs (every event may be delivered to an endpoint).
 */
export function keysOf(appId: string, event: Pick<WebhookEvent, "type" | "data">): QueryKey[] {
  const family = event.type.split(".")[0];
  // Every event is delivered to the endpoints that listen to it: their logs have a new line.
  const keys: QueryKey[] = [["webhook-deliveries", appId]];
  switch (family) {
    case "payment": {
      const id = (event.data as { id?: unknown }).id;
      // The list, the overview (["payments", appId, "overview"]) and, by id, the payment's page.
      keys.push(["payments", appId]);
      if (typeof id === "string") keys.push(["payment", appId, id], ["payment-events", appId, id]);
      // A status change is booked in the same transaction: balances, their chart, the movements.
      keys.push(["balances", appId], ["balance-history", appId], ["balance-transactions", appId]);
      break;
    }
    case "auction": {
      // The list and the one auction the event is about: not every auction's page (one deleted a
      // moment ago would be read again, a 404 nobody asked for).
      keys.push(["auctions", appId, "list"]);
      const id = (event.data as { auction_id?: unknown }).auction_id;
      if (typeof id === "string") keys.push(["auctions", appId, id]);
      break;
    }
    case "kyc":
      keys.push(["sellers", appId], ["kycs", appId]);
      break;
    case "wallet":
      keys.push(["wallets", appId]);
      break;
    case "reconciliation":
      keys.push(["reconciliations", appId]);
      break;
  }
  return keys;
}
