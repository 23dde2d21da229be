import type { FastifyReply, FastifyRequest } from "fastify";
import { type Static, type TSchema, Type } from "typebox";

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export const pageFields = {
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: "1-based page number" })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: "Page size" }),
  ),
};

/** The list query string: `page` (1-based) and `limit` (1 to 100); anything else is refused. */
export const ListQuery = Type.Object(pageFields, { additionalProperties: false });
export type ListQuery = Static<typeof ListQuery>;

export interface Page {
  page: number;
  limit: number;
  offset: number;
}

export function pageOf(query: { page?: number; limit?: number }): Page {
  const page = query.page ?? 1;
  const limit = query.limit ?? DEFAULT_LIMIT;
  return { page, limit, offset: (page - 1) * limit };
}

export const listHeaders = {
  "x-total-count": Type.Integer({ description: "Number of records across all pages" }),
  link: Type.String({ description: "RFC 8288 links: first, prev, next, last" }),
};

/** Sets `X-Total-Count` and RFC 8288 `Link` (first, prev, next, last) on a list answer. */
export function setListHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  page: Page,
  total: number,
): void {
  const lastPage = Math.max(1, Math.ceil(total / page.limit));
  const url = new URL(request.url, "http://placeholder");
  const link = (n: number, rel: string) => {
    url.searchParams.set("page", String(n));
    url.searchParams.set("limit", String(page.limit));
    return `<${url.pathname}${url.search}>; rel="${rel}"`;
  };
  const links = [link(1, "first")];
  if (page.page > 1) links.push(link(Math.min(page.page - 1, lastPage), "prev"));
  if (page.page < lastPage) links.push(link(page.page + 1, "next"));
  links.push(link(lastPage, "last"));
  reply.header("x-total-count", String(total));
  reply.header("link", links.join(", "));
}

/** The OpenAPI entry of a list answer: a bare array with the paging headers. */
export function listResponse(items: TSchema, description: string) {
  return { description, headers: listHeaders, ...Type.Array(items) };
}
