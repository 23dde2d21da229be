import type { FastifyContextConfig, FastifyReply, FastifyRequest, HTTPMethods } from "fastify";
import type { Static, TSchema } from "typebox";
import {
  ListQuery,
  type ListResult,
  listHeaders,
  listResponse,
  type Page,
  pageOf,
  setListHeaders,
} from "./pagination.ts";
import { NoContent } from "./schemas.ts";
import { SerializedAnswer } from "./serializers.ts";
import type { Server } from "./server.ts";

// What Fastify's serializer answers with: a text already serialized is sent with the same type.
const JSON_TYPE = "application/json; charset=utf-8";

/**
 * Route helpers for the answers most routes share: one resource, a page of a list, a created or
 * changed resource and no content. Route files import them as one namespace and call them by the
 * answer they give: `route.get`, `route.list`, `route.update`, `route.created`, `route.noContent`.
 * Each registers the route with its whole schema (so the OpenAPI document carries the paging query,
 * the list headers, the 201 or the 204) and leaves the route file only what is its own: the path,
 * its documentation and the call to the service.
 */

/** What every route documents; the helper adds the query, body and answer of its kind. */
export interface RouteDoc<P extends TSchema, Q extends TSchema, B extends TSchema> {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  security?: Record<string, string[]>[];
  params?: P;
  querystring?: Q;
  /** Request headers the route requires, e.g. a token; validated like the rest. */
  headers?: TSchema;
  body?: B;
  config?: FastifyContextConfig;
}

/** The request as a handler sees it: params, query and body typed by the route's own schemas. */
export type Input<P extends TSchema, Q extends TSchema, B extends TSchema> = FastifyRequest & {
  params: Static<P>;
  query: Static<Q>;
  body: Static<B>;
};

type Answer = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

function register(
  app: Server,
  method: HTTPMethods,
  url: string,
  doc: RouteDoc<TSchema, TSchema, TSchema>,
  response: Record<number, unknown>,
  handler: Answer,
) {
  const { config, params, querystring, headers, body, description, security, ...named } = doc;
  // Key order as the hand-written routes had it: the document lists parameters in this order.
  const schema = {
    ...named,
    ...(description === undefined ? {} : { description }),
    ...(security === undefined ? {} : { security }),
    ...(params === undefined ? {} : { params }),
    ...(querystring === undefined ? {} : { querystring }),
    ...(headers === undefined ? {} : { headers }),
    ...(body === undefined ? {} : { body }),
    response,
  };
  app.route({ method, url, ...(config === undefined ? {} : { config }), schema, handler });
}

export interface ListDoc<P extends TSchema, Q extends TSchema> extends RouteDoc<P, Q, TSchema> {
  /** One record of the list. */
  item: TSchema;
  /** The 200 answer's description, e.g. "Payments, newest first". */
  answer: string;
  /** A list answered inside a wrapper (KYC's `{data: [...]}`) rather than as a bare array. */
  wrapper?: { schema: TSchema; wrap: (items: unknown[]) => unknown };
}

/**
 * `GET` a page of a list: the query takes `page`, `limit`, `starting_after` and `ending_before` (plus
 * the list's own filters when `querystring` is given), and the answer carries `X-Total-Count`,
 * `X-Total-Count-Capped` and `Link` (src/platform/http/pagination.ts).
 */
export function list<P extends TSchema, Q extends TSchema = typeof ListQuery>(
  app: Server,
  url: string,
  doc: ListDoc<P, Q>,
  read: (request: Input<P, Q, TSchema>, page: Page) => Promise<ListResult<unknown>>,
) {
  const { item, answer, wrapper, ...route } = doc;
  const response = wrapper
    ? { description: answer, headers: listHeaders, ...wrapper.schema }
    : listResponse(item, answer);
  const wrap = wrapper?.wrap ?? ((items: unknown[]) => items);
  register(
    app,
    "GET",
    url,
    { ...route, querystring: doc.querystring ?? ListQuery },
    { 200: response },
    async (request, reply) => {
      const page = pageOf(request.query as Parameters<typeof pageOf>[0]);
      const { items, total, neighbours } = await read(request as Input<P, Q, TSchema>, page);
      setListHeaders(request, reply, page, total, neighbours);
      return wrap(items);
    },
  );
}

/** `GET` one resource: answers 200 with it. */
export function get<P extends TSchema, Q extends TSchema, R extends TSchema>(
  app: Server,
  url: string,
  doc: RouteDoc<P, Q, TSchema> & { resource: R },
  read: (request: Input<P, Q, TSchema>) => Promise<unknown>,
) {
  resourceRoute(app, "GET", url, doc, read);
}

/**
 * A route that changes a resource, or acts on it, and answers 200 with it as it now is (`PATCH`
 * unless said otherwise: `POST` for an action such as `/confirm`).
 */
export function update<P extends TSchema, B extends TSchema, R extends TSchema>(
  app: Server,
  url: string,
  doc: RouteDoc<P, TSchema, B> & { resource: R; method?: HTTPMethods },
  change: (request: Input<P, TSchema, B>) => Promise<unknown>,
) {
  const { method = "PATCH", ...route } = doc;
  resourceRoute(app, method, url, route, change);
}

function resourceRoute<P extends TSchema, Q extends TSchema, B extends TSchema>(
  app: Server,
  method: HTTPMethods,
  url: string,
  doc: RouteDoc<P, Q, B> & { resource: TSchema },
  answer: (request: Input<P, Q, B>) => Promise<unknown>,
) {
  const { resource, ...route } = doc;
  register(app, method, url, route, { 200: resource }, async (request, reply) => {
    const answered = await answer(request as Input<P, Q, B>);
    // Already the text the route's serializer makes (`serializerOf`): sent as it is.
    if (answered instanceof SerializedAnswer) return reply.type(JSON_TYPE).send(answered.text);
    return answered;
  });
}

/** A route that creates a resource: answers 201 with it (`POST` unless said otherwise). */
export function created<P extends TSchema, B extends TSchema, R extends TSchema>(
  app: Server,
  url: string,
  doc: RouteDoc<P, TSchema, B> & { resource: R; method?: HTTPMethods },
  create: (request: Input<P, TSchema, B>) => Promise<unknown>,
) {
  const { resource, method = "POST", ...route } = doc;
  register(app, method, url, route, { 201: resource }, async (request, reply) =>
    reply.code(201).send(await create(request as Input<P, TSchema, B>)),
  );
}

/** A route that answers 204 and no body once it has acted (`DELETE` unless said otherwise). */
export function noContent<P extends TSchema, B extends TSchema>(
  app: Server,
  url: string,
  doc: RouteDoc<P, TSchema, B> & { method?: HTTPMethods },
  act: (request: Input<P, TSchema, B>) => Promise<unknown>,
) {
  const { method = "DELETE", ...route } = doc;
  register(app, method, url, route, { 204: NoContent }, async (request, reply) => {
    await act(request as Input<P, TSchema, B>);
    return reply.code(204).send(null);
  });
}
