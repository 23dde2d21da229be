import type { Deps } from "../../deps.ts";
import { ListQuery, listResponse, pageOf, setListHeaders } from "../../platform/http/pagination.ts";
import { NoContent } from "../../platform/http/schemas.ts";
import type { Server } from "../../platform/http/server.ts";
import { AppParams } from "../apps/schemas.ts";
import { CreateEndpointBody, Delivery, DeliveryParams, Endpoint, EndpointParams } from "./schemas.ts";
import * as webhooks from "./service.ts";

const tags = ["webhooks"];

export async function webhookRoutes(app: Server, deps: Deps) {
  app.post(
    "/webhooks/:app_id",
    {
      schema: {
        operationId: "createWebhookEndpoint",
        tags,
        summary: "Register an endpoint; the signing secret is answered this once",
        params: AppParams,
        body: CreateEndpointBody,
        response: { 201: Endpoint },
      },
    },
    async (request, reply) => {
      const endpoint = await webhooks.createEndpoint(
        deps,
        request.actor,
        request.params.app_id,
        request.body,
      );
      return reply.code(201).send(endpoint);
    },
  );

  app.get(
    "/webhooks/:app_id",
    {
      schema: {
        operationId: "listWebhookEndpoints",
        tags,
        summary: "The app's webhook endpoints",
        params: AppParams,
        querystring: ListQuery,
        response: { 200: listResponse(Endpoint, "Endpoints, newest first") },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { items, total, neighbours } = await webhooks.listEndpoints(
        deps,
        request.actor,
        request.params.app_id,
        page,
      );
      setListHeaders(request, reply, page, total, neighbours);
      return items;
    },
  );

  app.get(
    "/webhooks/:app_id/:id",
    {
      schema: {
        operationId: "getWebhookEndpoint",
        tags,
        summary: "One webhook endpoint",
        params: EndpointParams,
        response: { 200: Endpoint },
      },
    },
    async (request) => webhooks.getEndpoint(deps, request.actor, request.params.app_id, request.params.id),
  );

  app.delete(
    "/webhooks/:app_id/:id",
    {
      schema: {
        operationId: "deleteWebhookEndpoint",
        tags,
        summary: "Delete an endpoint; deliveries not yet made are dropped",
        params: EndpointParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await webhooks.deleteEndpoint(deps, request.actor, request.params.app_id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/webhooks/:app_id/:id/rotate-secret",
    {
      schema: {
        operationId: "rotateWebhookSecret",
        tags,
        summary: "New signing secret, answered once; the old one also signs for 24 hours",
        params: EndpointParams,
        response: { 200: Endpoint },
      },
    },
    async (request) => webhooks.rotateSecret(deps, request.actor, request.params.app_id, request.params.id),
  );

  app.get(
    "/webhooks/:app_id/:id/deliveries",
    {
      schema: {
        operationId: "listWebhookDeliveries",
        tags,
        summary: "The endpoint's delivery log, every attempt included",
        params: EndpointParams,
        querystring: ListQuery,
        response: { 200: listResponse(Delivery, "Deliveries, newest first") },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { items, total, neighbours } = await webhooks.listDeliveries(
        deps,
        request.actor,
        request.params.app_id,
        request.params.id,
        page,
      );
      setListHeaders(request, reply, page, total, neighbours);
      return items;
    },
  );

  app.post(
    "/webhooks/:app_id/deliveries/:delivery_id/replay",
    {
      schema: {
        operationId: "replayWebhookDelivery",
        tags,
        summary: "Send a delivery's event again (same webhook-id), as a new delivery",
        params: DeliveryParams,
        response: { 201: Delivery },
      },
    },
    async (request, reply) => {
      const delivery = await webhooks.replayDelivery(
        deps,
        request.actor,
        request.params.app_id,
        request.params.delivery_id,
      );
      return reply.code(201).send(delivery);
    },
  );
}
