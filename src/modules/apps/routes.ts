import type { Deps } from "../../deps.ts";
import { createdRoute, listRoute, noContentRoute } from "../../platform/http/routes.ts";
import type { Server } from "../../platform/http/server.ts";
import { App, AppParams, CreateAppBody, UpdateAppBody } from "./schemas.ts";
import * as apps from "./service.ts";

const tags = ["apps"];

export async function appRoutes(app: Server, deps: Deps) {
  createdRoute(
    app,
    "/apps",
    {
      operationId: "createApp",
      tags,
      summary: "Create an app; the caller becomes its owner",
      body: CreateAppBody,
      resource: App,
    },
    (request) => apps.createApp(deps, request.actor, request.body),
  );

  listRoute(
    app,
    "/apps",
    {
      operationId: "listApps",
      tags,
      summary: "Apps the caller is a member of",
      item: App,
      answer: "Apps, newest first",
    },
    (request, page) => apps.listApps(deps, request.actor, page),
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

  noContentRoute(
    app,
    "/apps/:app_id",
    {
      operationId: "deleteApp",
      tags,
      summary: "Delete an app (owner only); 409 naming what is open while money is in flight",
      description:
        "Refused (409, counts per kind in the problem's `open`) while payments are pending, processing, " +
        "on hold, failed-captured or failed-transfers, or bids are on hold. Its payments and their " +
        "events are kept; every read of the app is 404 afterwards (docs/payments.md, Deleting an app).",
      params: AppParams,
    },
    (request) => apps.deleteApp(deps, request.actor, request.params.app_id),
  );
}
