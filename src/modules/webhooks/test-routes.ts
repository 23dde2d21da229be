import type { Deps } from "../../deps.ts";
import type { Server } from "../../platform/http/server.ts";
import { TEST_EVENT_TYPE } from "./event-types.ts";
import { Delivery, EndpointParams } from "./schemas.ts";
import { sendTestEvent } from "./test-event.ts";

// What the answer looks like: the new delivery, not yet attempted (its log fills in as the job runs).
const example = {
  id: "whd_01jdq3m5k8x2v7c9b4n6p0r1st",
  endpoint_id: "wh_01jdq3k2a9z4y6w8v1t3s5r7qp",
  event: {
    id: "evt_01jdq3m5k7f3g5h7j9k1m3n5pq",
    type: TEST_EVENT_TYPE,
    created_at: "2026-11-24T12:00:00.000Z",
  },
  request_body:
    '{"id":"evt_01jdq3m5k7f3g5h7j9k1m3n5pq","type":"webhook.test","timestamp":"2026-11-24T12:00:00.000Z","app_id":"app_01m87s3v8h13edjthr38t9cfv8","data":{"endpoint_id":"wh_01jdq3k2a9z4y6w8v1t3s5r7qp","message":"A test event: this endpoint receives deliveries"}}',
  status: "pending",
  attempt_count: 0,
  replay_of: null,
  delivered_at: null,
  attempts: [],
  created_at: "2026-11-24T12:00:00.000Z",
  updated_at: "2026-11-24T12:00:00.000Z",
};

/** `POST /webhooks/{app_id}/{id}/test`: a test event for one endpoint (docs/webhooks.md). */
export async function webhookTestRoutes(app: Server, deps: Deps) {
  app.post(
    "/webhooks/:app_id/:id/test",
    {
      schema: {
        operationId: "sendWebhookTestEvent",
        tags: ["webhooks"],
        summary: "Send a signed `webhook.test` event to this endpoint, whatever it subscribes to",
        description:
          "Enqueues one delivery of a new `webhook.test` event to this endpoint only, through the normal " +
          "delivery job: signed with the endpoint's secret, retried, shown in its delivery log and " +
          "replayable. 202: the delivery, `pending` until its first attempt. A disabled endpoint is " +
          "409. Owners and developers.",
        params: EndpointParams,
        response: {
          202: {
            description: "The test delivery, pending",
            content: { "application/json": { schema: Delivery, example } },
          },
        },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(await sendTestEvent(deps, request.actor, request.params.app_id, request.params.id)),
  );
}
