import { Type } from "typebox";
import type { Deps } from "../../deps.ts";
import * as route from "../../platform/http/routes.ts";
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
    // Its own schema, not the create's: that one's default would enable every endpoint PATCHed.
    enabled: Type.Optional(
      Type.Boolean({
        description: "false: no delivery of new events, queued ones wait; true: they are sent again, at once",
      }),
    ),
  },
  "What to change; fields left out stay as they are",
);

export async function webhookEditRoutes(app: Server, deps: Deps) {
  route.update(
    app,
    "/webhooks/:app_id/:id",
    {
      operationId: "updateWebhookEndpoint",
      tags: ["webhooks"],
      summary: "Change an endpoint's URL or events, or disable it; its secret and delivery log stay",
      params: EndpointParams,
      body: UpdateEndpointBody,
      resource: Endpoint,
    },
    (request) => updateEndpoint(deps, request.actor, request.params.app_id, request.params.id, request.body),
  );
}
