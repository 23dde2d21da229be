import type { Deps } from "../../deps.ts";
import { ListQuery, listResponse, pageOf, setListHeaders } from "../../platform/http/pagination.ts";
import { NoContent } from "../../platform/http/schemas.ts";
import type { Server } from "../../platform/http/server.ts";
import { App, AppParams, CreateAppBody, UpdateAppBody } from "./schemas.ts";
import * as apps from "./service.ts";

const tags = ["apps"];

export async function appRoutes(app: Server, deps: Deps) {
  app.post(
    "/apps",
    {
      schema: {
        operationId: "createApp",
        tags,
        summary: "Create an app; the caller becomes its owner",
        body: CreateAppBody,
        response: { 201: App },
      },
    },
    async (request, reply) => reply.code(201).send(await apps.createApp(deps, request.actor, request.body)),
  );

  app.get(
    "/apps",
    {
      schema: {
        operationId: "listApps",
        tags,
        summary: "Apps the caller is a member of",
        querystring: ListQuery,
        response: { 200: listResponse(App, "Apps, newest first") },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { items, total, neighbours } = await apps.listApps(deps, request.actor, page);
      setListHeaders(request, reply, page, total, neighbours);
      return items;
    },
  );

  app.get(
    "/apps/:app_id",
    {
      schema: { operationId: "getApp", tags, summary: "One app", params: AppParams, response: { 200: App } },
    },
    async (request) => apps.getApp(deps, request.actor, request.params.app_id),
  );

  app.patch(
    "/apps/:app_id",
    {
      schema: {
        operationId: "updateApp",
        tags,
        summary: "Change an app's settings",
        params: AppParams,
        body: UpdateAppBody,
        response: { 200: App },
      },
    },
    async (request) => apps.updateApp(deps, request.actor, request.params.app_id, request.body),
  );

  app.delete(
    "/apps/:app_id",
    {
      schema: {
        operationId: "deleteApp",
        tags,
        summary: "Delete an app (owner only); 409 naming what is open while money is in flight",
        description:
          "Refused (409, counts per kind in the problem's `open`) while payments are pending, processing, " +
          "on hold, failed-captured or failed-transfers, or bids are on hold. Its payments and their " +
          "events are kept; every read of the app is 404 afterwards (docs/payments.md, Deleting an app).",
        params: AppParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await apps.deleteApp(deps, request.actor, request.params.app_id);
      return reply.code(204).send(null);
    },
  );
}
