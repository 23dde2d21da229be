import type { Deps } from "../../deps.ts";
import { AppParams } from "../../platform/http/params.ts";
import * as route from "../../platform/http/routes.ts";
import type { Server } from "../../platform/http/server.ts";
import { EVENT_SCHEMAS } from "./event-schemas.ts";
import {
  CreateEndpointBody,
  Delivery,
  DeliveryParams,
  Endpoint,
  EndpointParams,
  ListDeliveriesQuery,
} from "./schemas.ts";
import * as webhooks from "./service.ts";

const tags = ["webhooks"];

export async function webhookRoutes(app: Server, deps: Deps) {
  app.documentWebhooks(EVENT_SCHEMAS);
  route.created(
    app,
    "/webhooks/:app_id",
    {
      operationId: "createWebhookEndpoint",
      tags,
      summary: "Register an endpoint; the signing secret is answered this once",
      params: AppParams,
      body: CreateEndpointBody,
      resource: Endpoint,
    },
    (request) => webhooks.createEndpoint(deps, request.actor, request.params.app_id, request.body),
  );

  route.list(
    app,
    "/webhooks/:app_id",
    {
      operationId: "listWebhookEndpoints",
      tags,
      summary: "The app's webhook endpoints",
      params: AppParams,
      item: Endpoint,
      answer: "Endpoints, newest first",
    },
    (request, page) => webhooks.listEndpoints(deps, request.actor, request.params.app_id, page),
  );

  route.get(
    app,
    "/webhooks/:app_id/:id",
    {
      operationId: "getWebhookEndpoint",
      tags,
      summary: "One webhook endpoint",
      params: EndpointParams,
      resource: Endpoint,
    },
    (request) => webhooks.getEndpoint(deps, request.actor, request.params.app_id, request.params.id),
  );

  route.noContent(
    app,
    "/webhooks/:app_id/:id",
    {
      operationId: "deleteWebhookEndpoint",
      tags,
      summary: "Delete an endpoint; deliveries not yet made are dropped",
      params: EndpointParams,
    },
    (request) => webhooks.deleteEndpoint(deps, request.actor, request.params.app_id, request.params.id),
  );

  route.update(
    app,
    "/webhooks/:app_id/:id/rotate-secret",
    {
      operationId: "rotateWebhookSecret",
      tags,
      summary: "New signing secret, answered once; the old one also signs for 24 hours",
      params: EndpointParams,
      method: "POST",
      resource: Endpoint,
    },
    (request) => webhooks.rotateSecret(deps, request.actor, request.params.app_id, request.params.id),
  );

  route.list(
    app,
    "/webhooks/:app_id/:id/deliveries",
    {
      operationId: "listWebhookDeliveries",
      tags,
      summary: "The endpoint's delivery log, every attempt included; filter by status and event type",
      params: EndpointParams,
      querystring: ListDeliveriesQuery,
      item: Delivery,
      answer: "Deliveries, newest first",
    },
    (request, page) =>
      webhooks.listDeliveries(deps, request.actor, request.params.app_id, request.params.id, page, {
        status: request.query.status,
        type: request.query.type,
      }),
  );

  route.created(
    app,
    "/webhooks/:app_id/deliveries/:delivery_id/replay",
    {
      operationId: "replayWebhookDelivery",
      tags,
      summary: "Send a delivery's event again (same webhook-id), as a new delivery",
      params: DeliveryParams,
      resource: Delivery,
    },
    (request) =>
      webhooks.replayDelivery(deps, request.actor, request.params.app_id, request.params.delivery_id),
  );
}
