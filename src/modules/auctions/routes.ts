import { Type } from "typebox";
import type { Deps } from "../../deps.ts";
import { ListQuery, listResponse, pageOf, setListHeaders } from "../../platform/http/pagination.ts";
import { NoContent } from "../../platform/http/schemas.ts";
import type { Server } from "../../platform/http/server.ts";
import { AppParams } from "../apps/schemas.ts";
import { createBid } from "./bidding.ts";
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
  app.post(
    "/auctions/:app_id",
    {
      schema: {
        operationId: "createAuction",
        tags,
        summary: "Create an auction and its two prices",
        params: AppParams,
        body: CreateAuctionBody,
        response: { 201: Auction },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.createAuction(deps, request.actor, request.params.app_id, request.body)),
  );

  app.get(
    "/auctions/:app_id",
    {
      schema: {
        operationId: "listAuctions",
        tags,
        summary: "Auctions of an app",
        params: AppParams,
        querystring: ListQuery,
        response: { 200: listResponse(Auction, "Auctions, newest first") },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { items, total, neighbours } = await service.listAuctions(
        deps,
        request.actor,
        request.params.app_id,
        page,
      );
      setListHeaders(request, reply, page, total, neighbours);
      return items;
    },
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
        response: { 200: Type.String({ description: "The auction's id" }) },
      },
    },
    async (request, reply) =>
      reply
        .type("application/json")
        .send(
          JSON.stringify(await service.updateAuction(deps, request.actor, request.params.id, request.body)),
        ),
  );

  app.delete(
    "/auctions/:app_id/:auction_id",
    {
      schema: {
        operationId: "deleteAuction",
        tags,
        summary: "Delete an auction that has no bid",
        params: AuctionParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await service.deleteAuction(deps, request.actor, request.params.app_id, request.params.auction_id);
      return reply.code(204).send(null);
    },
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

  app.post(
    "/auctions/:app_id/:auction_id/shoppers/code",
    {
      config: { public: true },
      schema: {
        operationId: "sendShopperCode",
        tags,
        summary: "Mail a shopper a one-time sign-in code (rate-limited per email and address)",
        security: [],
        params: AuctionParams,
        body: CodeBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await requestCode(
        deps,
        request.params.app_id,
        request.params.auction_id,
        request.body.email,
        request.ip,
      );
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/auctions/:app_id/:auction_id/shoppers/session",
    {
      config: { public: true },
      schema: {
        operationId: "createShopperSession",
        tags,
        summary: "Trade a one-time code for a shopper token",
        security: [],
        params: AuctionParams,
        body: SessionBody,
        response: { 201: ShopperSession },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await openSession(deps, request.params.app_id, request.params.auction_id, request.body, request.ip),
        ),
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

  app.get(
    "/auctions/:app_id/:auction_id/bids",
    {
      schema: {
        operationId: "listBids",
        tags,
        summary: "Bids of an auction, oldest first",
        params: AuctionParams,
        querystring: ListQuery,
        response: { 200: listResponse(Bid, "Bids, oldest first") },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { app_id, auction_id } = request.params;
      const { items, total, neighbours } = await service.listBids(
        deps,
        request.actor,
        app_id,
        auction_id,
        page,
      );
      setListHeaders(request, reply, page, total, neighbours);
      return items;
    },
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
      const { html, policy } = renderAuctionPage(await viewAuction(deps, request.params.auction_id));
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
