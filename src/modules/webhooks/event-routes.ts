import type { Deps } from "../../deps.ts";
import { readCredential } from "../../platform/auth/credentials.ts";
import type { Authenticator } from "../../platform/auth/principal.ts";
import { AppParams } from "../../platform/http/params.ts";
import * as route from "../../platform/http/routes.ts";
import type { Server } from "../../platform/http/server.ts";
import { requireAppRole } from "../apps/access.ts";
import { getEvent, listEvents } from "./event-log.ts";
import {
  EVENT_RETENTION_DAYS,
  Event,
  EventParams,
  ListEventsQuery,
  StreamHeaders,
  StreamQuery,
} from "./event-log-schemas.ts";
import { streamEvents, streamStart } from "./event-stream.ts";

const tags = ["events"];

/**
 * The event log (`GET /events/{app_id}`, one event) and its live stream. `authenticate` is the
 * app's own credential check: an open stream runs it again from time to time, so a revoked key or
 * an ended session stops streaming.
 */
export async function eventRoutes(app: Server, deps: Deps, authenticate: Authenticator) {
  route.list(
    app,
    "/events/:app_id",
    {
      operationId: "listEvents",
      tags,
      summary: `The app's events of the last ${EVENT_RETENTION_DAYS} days, newest first; filter by type or date`,
      description:
        "Every event the app emitted, whether or not a webhook endpoint listened: a receiver that " +
        "was down catches up here. Each item is the JSON its deliveries carry.",
      params: AppParams,
      querystring: ListEventsQuery,
      item: Event,
      answer: "Events, newest first",
    },
    (request, page) => listEvents(deps, request.actor, request.params.app_id, page, request.query),
  );

  const streams = new Set<() => void>();
  // Before the server closes: it waits for open connections, and a stream never ends by itself.
  app.addHook("preClose", async () => {
    for (const stop of streams) stop();
  });
  app.get(
    "/events/:app_id/stream",
    {
      config: { page: "text/event-stream" },
      schema: {
        operationId: "streamEvents",
        tags,
        summary: "Server-sent events: the app's events as they happen, resumable with Last-Event-ID",
        description:
          "Each event is a server-sent event whose `id` is the event's id, `event` its type and " +
          "`data` the JSON `GET /events/{app_id}` lists. With `Last-Event-ID` (or `after`) the " +
          "events after that one are sent first, then new ones as they happen; a comment line " +
          "keeps the connection open every 15 seconds.",
        params: AppParams,
        querystring: StreamQuery,
        headers: StreamHeaders,
      },
    },
    async (request, reply) => {
      const appId = request.params.app_id;
      const header = request.headers["last-event-id"];
      const after =
        typeof header === "string"
          ? { id: header, field: "/headers/last-event-id" }
          : request.query.after === undefined
            ? undefined
            : { id: request.query.after, field: "/query/after" };
      const position = await streamStart(deps, request.actor, appId, after);
      const reading = readCredential(request.headers.authorization);
      const allowed = async () => {
        const actor = reading && "credential" in reading ? await authenticate(reading.credential) : undefined;
        if (!actor) return false;
        return requireAppRole(deps.db, actor, appId, "view").then(
          () => true,
          () => false,
        );
      };
      const stop = streamEvents(deps, request, reply, { appId, type: request.query.type, position, allowed });
      streams.add(stop);
      reply.raw.on("close", () => streams.delete(stop));
    },
  );

  app.get(
    "/events/:app_id/:event_id",
    {
      schema: {
        operationId: "getEvent",
        tags,
        summary: "One event of the app",
        params: EventParams,
        response: { 200: Event },
      },
    },
    async (request) => getEvent(deps, request.actor, request.params.app_id, request.params.event_id),
  );
}
