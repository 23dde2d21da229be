import type { Deps } from "../../deps.ts";
import { ListQuery, listResponse, pageOf, setListHeaders } from "../../platform/http/pagination.ts";
import { NoContent } from "../../platform/http/schemas.ts";
import type { Server } from "../../platform/http/server.ts";
import { AppParams } from "../apps/schemas.ts";
import {
  CreateTriggerBody,
  RenderBody,
  RenderedCall,
  Trigger,
  TriggerParams,
  UpdateTriggerBody,
} from "./schemas.ts";
import * as triggersService from "./service.ts";

const tags = ["triggers"];

export async function triggerRoutes(app: Server, deps: Deps) {
  app.get(
    "/triggers/:app_id",
    {
      schema: {
        operationId: "listTriggers",
        tags,
        summary: "Triggers of an app",
        params: AppParams,
        querystring: ListQuery,
        response: { 200: listResponse(Trigger, "Triggers, newest first") },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { items, total, neighbours } = await triggersService.listTriggers(
        deps,
        request.actor,
        request.params.app_id,
        page,
      );
      setListHeaders(request, reply, page, total, neighbours);
      return items;
    },
  );

  app.post(
    "/triggers/:app_id",
    {
      schema: {
        operationId: "createTrigger",
        tags,
        summary: "Create a trigger: a contract call on the chain of one of the app's wallets",
        params: AppParams,
        body: CreateTriggerBody,
        response: { 201: Trigger },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await triggersService.createTrigger(deps, request.actor, request.params.app_id, request.body)),
  );

  app.get(
    "/triggers/:app_id/:trigger_id",
    {
      schema: {
        operationId: "getTrigger",
        tags,
        summary: "One trigger",
        params: TriggerParams,
        response: { 200: Trigger },
      },
    },
    async (request) =>
      triggersService.getTrigger(deps, request.actor, request.params.app_id, request.params.trigger_id),
  );

  app.patch(
    "/triggers/:app_id/:trigger_id",
    {
      schema: {
        operationId: "updateTrigger",
        tags,
        summary: "Change a trigger; the merged trigger is checked as on creation",
        params: TriggerParams,
        body: UpdateTriggerBody,
        response: { 200: Trigger },
      },
    },
    async (request) =>
      triggersService.updateTrigger(
        deps,
        request.actor,
        request.params.app_id,
        request.params.trigger_id,
        request.body,
      ),
  );

  app.delete(
    "/triggers/:app_id/:trigger_id",
    {
      schema: {
        operationId: "deleteTrigger",
        tags,
        summary: "Delete a trigger",
        params: TriggerParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await triggersService.deleteTrigger(
        deps,
        request.actor,
        request.params.app_id,
        request.params.trigger_id,
      );
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/triggers/:app_id/:trigger_id/render",
    {
      schema: {
        operationId: "renderTrigger",
        tags,
        summary: "The exact call the trigger makes for a parameter input; nothing is sent",
        params: TriggerParams,
        body: RenderBody,
        response: { 200: RenderedCall },
      },
    },
    async (request) =>
      triggersService.renderTrigger(
        deps,
        request.actor,
        request.params.app_id,
        request.params.trigger_id,
        request.body.params_data_input,
      ),
  );
}
