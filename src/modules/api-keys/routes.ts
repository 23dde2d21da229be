import type { Deps } from "../../deps.ts";
import { AppParams } from "../../platform/http/params.ts";
import * as route from "../../platform/http/routes.ts";
import type { Server } from "../../platform/http/server.ts";
import { ApiKey, ApiKeyParams, CreateApiKeyBody, CreatedApiKey, UpdateApiKeyBody } from "./schemas.ts";
import * as keys from "./service.ts";

const tags = ["api-keys"];

export async function apiKeyRoutes(app: Server, deps: Deps) {
  route.created(
    app,
    "/apps/:app_id/api-keys",
    {
      operationId: "createApiKey",
      tags,
      summary: "Create an API key for the app; the key is answered this once",
      params: AppParams,
      body: CreateApiKeyBody,
      resource: CreatedApiKey,
    },
    (request) => keys.createKey(deps, request.actor, request.params.app_id, request.body.name),
  );

  route.list(
    app,
    "/apps/:app_id/api-keys",
    {
      operationId: "listApiKeys",
      tags,
      summary: "The app's API keys, without the keys themselves",
      params: AppParams,
      item: ApiKey,
      answer: "API keys, newest first",
    },
    (request, page) => keys.listKeys(deps, request.actor, request.params.app_id, page),
  );

  route.update(
    app,
    "/apps/:app_id/api-keys/:key_id",
    {
      operationId: "updateApiKey",
      tags,
      summary: "Rename an API key (owners: any key; developers: their own); the key itself stays",
      params: ApiKeyParams,
      body: UpdateApiKeyBody,
      resource: ApiKey,
    },
    (request) =>
      keys.renameKey(deps, request.actor, request.params.app_id, request.params.key_id, request.body.name),
  );

  route.noContent(
    app,
    "/apps/:app_id/api-keys/:key_id",
    {
      operationId: "revokeApiKey",
      tags,
      summary: "Revoke an API key at once (owners: any key; developers: their own)",
      params: ApiKeyParams,
    },
    (request) => keys.revokeKey(deps, request.actor, request.params.app_id, request.params.key_id),
  );
}
