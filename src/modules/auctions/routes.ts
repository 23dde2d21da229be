import { Type } from "typebox";
import type { Deps } from "../../deps.ts";
import { AppParams } from "../../platform/http/params.ts";
import { createdRoute, listRoute, noContentRoute } from "../../platform/http/routes.ts";
import type { Server } from "../../platform/http/server.ts";
import { appBrand } from "../apps/for-pages.ts";
import { createBid } from "./bidding.ts";
import { endAuction } from "./end.ts";
import { streamState, viewAuction } from "./live.ts";
import { renderAuctionPage } from "./page.ts";
import {
  Auction,
  AuctionIdParams,
  AuctionParams,
  Bid,
  BidParams,
  CodeBody,
  CreateAuctionBody,
  CreateBidBody,
  PublicAuctionParams,
  SessionBody,
  Shopper,
  ShopperParams,
  ShopperSession,
  UpdateAuctionBody,
  UpdateShopperBody,
} from "./schemas.ts";
import * as service from "./service.ts";
import { openSession, requestCode, setShopperDisabled } from "./shoppers.ts";

const tags = ["auctions"];
const shopperAuth = [{ bearer: [] }];

export async function auctionRoutes(app: Server, deps: Deps) {
  createdRoute(
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

  listRoute(
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

  app.get(
    "/auctions/:app_id/:auction_id",
    {
      schema: {
        operationId: "getAuction",
        tags,
        summary: "One auction with its bids",
        params: AuctionParams,
        response: { 200: Auction },
      },
    },
    async (request) =>
      service.getAuction(deps, request.actor, request.params.app_id, request.params.auction_id),
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

  app.post(
    "/auctions/:app_id/:auction_id/end",
    {
      schema: {
        operationId: "endAuction",
        tags,
        summary: "End an auction now: bids stop, and the standing bid wins as at its end time",
        params: AuctionParams,
        response: { 200: Auction },
      },
    },
    async (request) => endAuction(deps, request.actor, request.params.app_id, request.params.auction_id),
  );

  noContentRoute(
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

  app.patch(
    "/auctions/:app_id/shoppers/:shopper_id",
    {
      schema: {
        operationId: "updateShopper",
        tags,
        summary: "Disable (or enable) a shopper",
        params: ShopperParams,
        body: UpdateShopperBody,
        response: { 200: Shopper },
      },
    },
    async (request) =>
      setShopperDisabled(
        deps,
        request.actor,
        request.params.app_id,
        request.params.shopper_id,
        request.body.disabled,
      ),
  );

  noContentRoute(
    app,
    "/auctions/:app_id/:auction_id/shoppers/code",
    {
      method: "POST",
      config: { public: true },
      operationId: "sendShopperCode",
      tags,
      summary: "Mail a shopper a one-time sign-in code (rate-limited per email and address)",
      security: [],
      params: AuctionParams,
      body: CodeBody,
    },
    (request) =>
      requestCode(deps, request.params.app_id, request.params.auction_id, request.body.email, request.ip),
  );

  createdRoute(
    app,
    "/auctions/:app_id/:auction_id/shoppers/session",
    {
      config: { public: true },
      operationId: "createShopperSession",
      tags,
      summary: "Trade a one-time code for a shopper token",
      security: [],
      params: AuctionParams,
      body: SessionBody,
      resource: ShopperSession,
    },
    (request) =>
      openSession(deps, request.params.app_id, request.params.auction_id, request.body, request.ip),
  );

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

  listRoute(
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

  app.get(
    "/auctions/:app_id/:auction_id/bids/:bid_id",
    {
      schema: { operationId: "getBid", tags, summary: "One bid", params: BidParams, response: { 200: Bid } },
    },
    async (request) => {
      const { app_id, auction_id, bid_id } = request.params;
      return service.getBid(deps, request.actor, app_id, auction_id, bid_id);
    },
  );

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
      const auction = await viewAuction(deps, request.params.auction_id);
      const { html, policy } = renderAuctionPage(auction, await appBrand(deps.db, auction.app_id));
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
