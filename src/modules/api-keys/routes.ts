import type { Deps } from "../../deps.ts";
import { ListQuery, listResponse, pageOf, setListHeaders } from "../../platform/http/pagination.ts";
import { NoContent } from "../../platform/http/schemas.ts";
import type { Server } from "../../platform/http/server.ts";
import { AppParams } from "../apps/schemas.ts";
import { ApiKey, ApiKeyParams, CreateApiKeyBody, CreatedApiKey } from "./schemas.ts";
import * as keys from "./service.ts";

const tags = ["api-keys"];

export async function apiKeyRoutes(app: Server, deps: Deps) {
  app.post(
    "/apps/:app_id/api-keys",
    {
      schema: {
        operationId: "createApiKey",
        tags,
        summary: "Create an API key for the app; the key is answered this once",
        params: AppParams,
        body: CreateApiKeyBody,
        response: { 201: CreatedApiKey },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await keys.createKey(deps, request.actor, request.params.app_id, request.body.name)),
  );

  app.get(
    "/apps/:app_id/api-keys",
    {
      schema: {
        operationId: "listApiKeys",
        tags,
        summary: "The app's API keys, without the keys themselves",
        params: AppParams,
        querystring: ListQuery,
        response: { 200: listResponse(ApiKey, "API keys, newest first") },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { items, total, neighbours } = await keys.listKeys(
        deps,
        request.actor,
        request.params.app_id,
        page,
      );
      setListHeaders(request, reply, page, total, neighbours);
      return items;
    },
  );

  app.delete(
    "/apps/:app_id/api-keys/:key_id",
    {
      schema: {
        operationId: "revokeApiKey",
        tags,
        summary: "Revoke an API key at once (owners: any key; developers: their own)",
        params: ApiKeyParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await keys.revokeKey(deps, request.actor, request.params.app_id, request.params.key_id);
      return reply.code(204).send(null);
    },
  );
}
