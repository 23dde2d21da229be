import type { Deps } from "../../deps.ts";
import * as route from "../../platform/http/routes.ts";
import type { Server } from "../../platform/http/server.ts";
import { createBid } from "./bidding.ts";
import { AuctionParams, Bid, BidParams, CreateBidBody } from "./schemas.ts";
import * as service from "./service.ts";

const shopperAuth = [{ bearer: [] }];

const tags = ["auctions"];

/** Bids: a shopper places one (202 until its card hold lands); the app lists and reads them. */
export function bidRoutes(app: Server, deps: Deps) {
  app.post(
    "/auctions/:app_id/:auction_id/bids",
    {
      // A shopper token, not a user session or API key: checked by the service.
      config: { public: true, idempotencyKey: true },
      schema: {
        operationId: "placeBid",
        tags,
        summary:
          "Bid (shopper token); 202: the Bid, `pending` until its card hold lands; `Idempotency-Key` replays a bid",
        security: shopperAuth,
        params: AuctionParams,
        body: CreateBidBody,
        response: { 202: Bid },
      },
    },
    async (request, reply) =>
      reply.code(202).send(
        await createBid(
          deps,
          request.params.app_id,
          request.params.auction_id,
          request.headers.authorization,
          request.body,
          {
            ipAddress: request.ip,
            userAgent: request.headers["user-agent"] ?? "",
          },
          request.headers["idempotency-key"] as string | undefined,
        ),
      ),
  );

  route.list(
    app,
    "/auctions/:app_id/:auction_id/bids",
    {
      operationId: "listBids",
      tags,
      summary: "Bids of an auction, oldest first",
      params: AuctionParams,
      item: Bid,
      answer: "Bids, oldest first",
    },
    (request, page) =>
      service.listBids(deps, request.actor, request.params.app_id, request.params.auction_id, page),
  );

  route.get(
    app,
    "/auctions/:app_id/:auction_id/bids/:bid_id",
    {
      operationId: "getBid",
      tags,
      summary: "One bid",
      params: BidParams,
      resource: Bid,
    },
    async (request) => {
      const { app_id, auction_id, bid_id } = request.params;
      return service.getBid(deps, request.actor, app_id, auction_id, bid_id);
    },
  );
}
