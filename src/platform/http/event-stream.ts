import type { ServerResponse } from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * Takes the answer over from Fastify and opens it as a server-sent event stream: the client
 * reconnects `retryMs` after losing it, and `firstEvent` (its `event:`/`data:` lines), when given,
 * goes in the same write. Answers the raw response to write the next events to.
 */
export function openEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  retryMs: number,
  firstEvent?: string,
): ServerResponse {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store",
    connection: "keep-alive",
    "x-request-id": request.id,
    // nginx would otherwise buffer the answer, holding events back.
    "x-accel-buffering": "no",
  });
  raw.write(firstEvent === undefined ? `retry: ${retryMs}\n\n` : `retry: ${retryMs}\n${firstEvent}\n\n`);
  return raw;
}
