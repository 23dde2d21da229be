import type { Deps } from "../../deps.ts";
import { AppParams } from "../../platform/http/params.ts";
import * as route from "../../platform/http/routes.ts";
import type { Server } from "../../platform/http/server.ts";
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
  route.list(
    app,
    "/triggers/:app_id",
    {
      operationId: "listTriggers",
      tags,
      summary: "Triggers of an app",
      params: AppParams,
      item: Trigger,
      answer: "Triggers, newest first",
    },
    (request, page) => triggersService.listTriggers(deps, request.actor, request.params.app_id, page),
  );

  route.created(
    app,
    "/triggers/:app_id",
    {
      operationId: "createTrigger",
      tags,
      summary: "Create a trigger: a contract call on the chain of one of the app's wallets",
      params: AppParams,
      body: CreateTriggerBody,
      resource: Trigger,
    },
    (request) => triggersService.createTrigger(deps, request.actor, request.params.app_id, request.body),
  );

  route.get(
    app,
    "/triggers/:app_id/:trigger_id",
    {
      operationId: "getTrigger",
      tags,
      summary: "One trigger",
      params: TriggerParams,
      resource: Trigger,
    },
    (request) =>
      triggersService.getTrigger(deps, request.actor, request.params.app_id, request.params.trigger_id),
  );

  route.update(
    app,
    "/triggers/:app_id/:trigger_id",
    {
      operationId: "updateTrigger",
      tags,
      summary: "Change a trigger; the merged trigger is checked as on creation",
      params: TriggerParams,
      body: UpdateTriggerBody,
      resource: Trigger,
    },
    (request) =>
      triggersService.updateTrigger(
        deps,
        request.actor,
        request.params.app_id,
        request.params.trigger_id,
        request.body,
      ),
  );

  route.noContent(
    app,
    "/triggers/:app_id/:trigger_id",
    { operationId: "deleteTrigger", tags, summary: "Delete a trigger", params: TriggerParams },
    (request) =>
      triggersService.deleteTrigger(deps, request.actor, request.params.app_id, request.params.trigger_id),
  );

  route.update(
    app,
    "/triggers/:app_id/:trigger_id/render",
    {
      operationId: "renderTrigger",
      tags,
      summary: "The exact call the trigger makes for a parameter input; nothing is sent",
      params: TriggerParams,
      body: RenderBody,
      method: "POST",
      resource: RenderedCall,
    },
    (request) =>
      triggersService.renderTrigger(
        deps,
        request.actor,
        request.params.app_id,
        request.params.trigger_id,
        request.body.params_data_input,
      ),
  );
}
