import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { appRecord } from "../../platform/http/app-record.ts";
import { requireAppRole } from "../apps/access.ts";
import { TEST_EVENT_TYPE } from "./event-types.ts";
import { sendEventTo } from "./events.ts";
import { presentDelivery } from "./presenters.ts";
import { refuseIfDisabled } from "./service.ts";
import { webhookEndpoints } from "./tables.ts";

/**
 * Sends a `webhook.test` event to one endpoint, whatever it subscribes to, so an integrator can
 * check their receiver and its signature check before a real event happens. It is an ordinary
 * event and delivery: signed, retried, logged and replayable like any other; the event, the
 * delivery and its job commit together. A disabled endpoint takes none (409).
 */
export async function sendTestEvent(deps: Deps, actor: Principal, appId: string, endpointId: string) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const { event, delivery } = await deps.db.transaction(async (tx) => {
    const endpoint = await appRecord(tx, webhookEndpoints, appId, endpointId, "Webhook endpoint");
    refuseIfDisabled(endpoint, "it takes no test event");
    const { event, deliveries } = await sendEventTo(
      deps,
      tx,
      {
        appId,
        type: TEST_EVENT_TYPE,
        data: { endpoint_id: endpoint.id, message: "A test event: this endpoint receives deliveries" },
      },
      [endpoint],
    );
    const [delivery] = deliveries;
    return { event, delivery };
  });
  return presentDelivery(delivery, event, []);
}
