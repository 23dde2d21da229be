import { Type } from "typebox";
import type { Deps } from "../../deps.ts";
import { AppParams } from "../../platform/http/params.ts";
import * as route from "../../platform/http/routes.ts";
import type { Server } from "../../platform/http/server.ts";
import { bidRoutes } from "./bid-routes.ts";
import { endAuction } from "./end.ts";
import { auctionPageRoutes } from "./page-routes.ts";
import { Auction, AuctionIdParams, AuctionParams, CreateAuctionBody, UpdateAuctionBody } from "./schemas.ts";
import * as service from "./service.ts";
import { shopperRoutes } from "./shopper-routes.ts";

const tags = ["auctions"];

/** The auctions' routes, one group per file: the auction itself here, then shoppers, bids, public pages. */
export async function auctionRoutes(app: Server, deps: Deps) {
  manageRoutes(app, deps);
  shopperRoutes(app, deps);
  bidRoutes(app, deps);
  auctionPageRoutes(app, deps);
}

/** The app's auctions: create, list, read, change, end and delete. */
function manageRoutes(app: Server, deps: Deps) {
  route.created(
    app,
    "/auctions/:app_id",
    {
      operationId: "createAuction",
      tags,
      summary: "Create an auction and its two prices",
      params: AppParams,
      body: CreateAuctionBody,
      resource: Auction,
    },
    (request) => service.createAuction(deps, request.actor, request.params.app_id, request.body),
  );

  route.list(
    app,
    "/auctions/:app_id",
    {
      operationId: "listAuctions",
      tags,
      summary: "Auctions of an app",
      params: AppParams,
      item: Auction,
      answer: "Auctions, newest first",
    },
    (request, page) => service.listAuctions(deps, request.actor, request.params.app_id, page),
  );

  route.get(
    app,
    "/auctions/:app_id/:auction_id",
    {
      operationId: "getAuction",
      tags,
      summary: "One auction with its bids",
      params: AuctionParams,
      resource: Auction,
    },
    (request) => service.getAuction(deps, request.actor, request.params.app_id, request.params.auction_id),
  );

  app.patch(
    "/auctions/:id",
    {
      schema: {
        operationId: "updateAuction",
        tags,
        summary: "Rename an auction, or change its starting amount and currency before the first bid",
        params: AuctionIdParams,
        body: UpdateAuctionBody,
        response: {
          200: Type.String({ description: "The auction's id", examples: ["auc_01m87s3v8k4r2fjc23vtvkbtjp"] }),
        },
      },
    },
    async (request, reply) =>
      reply
        .type("application/json")
        .send(
          JSON.stringify(await service.updateAuction(deps, request.actor, request.params.id, request.body)),
        ),
  );

  route.update(
    app,
    "/auctions/:app_id/:auction_id/end",
    {
      operationId: "endAuction",
      tags,
      summary: "End an auction now: bids stop, and the standing bid wins as at its end time",
      params: AuctionParams,
      method: "POST",
      resource: Auction,
    },
    (request) => endAuction(deps, request.actor, request.params.app_id, request.params.auction_id),
  );

  route.noContent(
    app,
    "/auctions/:app_id/:auction_id",
    {
      operationId: "deleteAuction",
      tags,
      summary: "Delete an auction that has no bid",
      params: AuctionParams,
    },
    (request) => service.deleteAuction(deps, request.actor, request.params.app_id, request.params.auction_id),
  );
}
