import { Type } from "typebox";
import type { Deps } from "../../deps.ts";
import { updateRoute } from "../../platform/http/routes.ts";
import { Body } from "../../platform/http/schemas.ts";
import type { Server } from "../../platform/http/server.ts";
import { updateEndpoint } from "./edit.ts";
import { CreateEndpointBody, Endpoint, EndpointParams } from "./schemas.ts";

// Editing an endpoint in place: a receiver that moves, or wants other events, keeps its secret and
// its delivery log instead of starting over as a new endpoint.

export const UpdateEndpointBody = Body(
  {
    url: Type.Optional(CreateEndpointBody.properties.url),
    events: Type.Optional(CreateEndpointBody.properties.events),
  },
  "What to change; fields left out stay as they are",
);

export async function webhookEditRoutes(app: Server, deps: Deps) {
  updateRoute(
    app,
    "/webhooks/:app_id/:id",
    {
      operationId: "updateWebhookEndpoint",
      tags: ["webhooks"],
      summary: "Change an endpoint's URL or events; its secret and delivery log stay",
      params: EndpointParams,
      body: UpdateEndpointBody,
      resource: Endpoint,
    },
    (request) => updateEndpoint(deps, request.actor, request.params.app_id, request.params.id, request.body),
  );
}
