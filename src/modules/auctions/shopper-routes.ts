import type { Deps } from "../../deps.ts";
import * as route from "../../platform/http/routes.ts";
import type { Server } from "../../platform/http/server.ts";
import {
  AuctionParams,
  CodeBody,
  SessionBody,
  Shopper,
  ShopperParams,
  ShopperSession,
  UpdateShopperBody,
} from "./schemas.ts";
import { openSession, requestCode, setShopperDisabled } from "./shoppers.ts";

const tags = ["auctions"];

/** Shoppers: the app disables one; a shopper signs in with a mailed one-time code. */
export function shopperRoutes(app: Server, deps: Deps) {
  route.update(
    app,
    "/auctions/:app_id/shoppers/:shopper_id",
    {
      operationId: "updateShopper",
      tags,
      summary: "Disable (or enable) a shopper",
      params: ShopperParams,
      body: UpdateShopperBody,
      resource: Shopper,
    },
    (request) =>
      setShopperDisabled(
        deps,
        request.actor,
        request.params.app_id,
        request.params.shopper_id,
        request.body.disabled,
      ),
  );

  route.noContent(
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

  route.created(
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
}
