import type { Deps } from "../../deps.ts";
import type { Server } from "../../platform/http/server.ts";
import { streamState } from "./live.ts";
import { auctionPage } from "./page.ts";
import { PublicAuctionParams } from "./schemas.ts";

const tags = ["auctions"];

/** The auction's public page and its live events, without a credential. */
export function auctionPageRoutes(app: Server, deps: Deps) {
  app.get(
    "/a/:auction_id",
    {
      config: { public: true, page: "text/html" },
      schema: {
        operationId: "getAuctionPage",
        tags,
        summary: "The auction's public page (HTML); counts a view",
        security: [],
        params: PublicAuctionParams,
      },
    },
    async (request, reply) => {
      const { html, policy } = await auctionPage(deps, request.params.auction_id);
      return reply
        .type("text/html; charset=utf-8")
        .header("content-security-policy", policy)
        .header("x-content-type-options", "nosniff")
        .header("referrer-policy", "no-referrer")
        .header("cache-control", "no-store")
        .send(html);
    },
  );

  const streams = new Set<() => void>();
  app.addHook("preClose", async () => {
    for (const stop of streams) stop();
  });
  app.get(
    "/a/:auction_id/events",
    {
      config: { public: true, page: "text/event-stream" },
      schema: {
        operationId: "streamAuctionEvents",
        tags,
        summary: "Server-sent events: the auction's public state, sent whenever it changes",
        security: [],
        params: PublicAuctionParams,
      },
    },
    async (request, reply) => {
      const stop = await streamState(deps, request.params.auction_id, request, reply);
      streams.add(stop);
      request.raw.on("close", () => streams.delete(stop));
    },
  );
}
