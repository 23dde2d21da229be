import type { Deps } from "../../deps.ts";
import { AppParams } from "../../platform/http/params.ts";
import * as route from "../../platform/http/routes.ts";
import type { Server } from "../../platform/http/server.ts";
import { PriceItem } from "../../platform/money/schemas.ts";
import { previewPriceItem } from "./preview.ts";
import {
  CreatePriceBody,
  Price,
  PriceItemQuery,
  PriceParams,
  PublicPrice,
  PublicPriceParams,
  UpdatePriceBody,
} from "./schemas.ts";
import * as pricesService from "./service.ts";

const tags = ["prices"];

export async function priceRoutes(app: Server, deps: Deps) {
  route.created(
    app,
    "/prices/:app_id",
    {
      operationId: "createPrice",
      tags,
      summary: "Create a price",
      params: AppParams,
      body: CreatePriceBody,
      resource: Price,
    },
    (request) => pricesService.createPrice(deps, request.actor, request.params.app_id, request.body),
  );

  route.list(
    app,
    "/prices/:app_id",
    {
      operationId: "listPrices",
      tags,
      summary: "Prices of an app",
      params: AppParams,
      item: Price,
      answer: "Prices, newest first",
    },
    (request, page) => pricesService.listPrices(deps, request.actor, request.params.app_id, page),
  );

  route.get(
    app,
    "/prices/:app_id/:price_id",
    {
      operationId: "getPrice",
      tags,
      summary: "One price",
      params: PriceParams,
      resource: Price,
    },
    (request) => pricesService.getPrice(deps, request.actor, request.params.app_id, request.params.price_id),
  );

  route.get(
    app,
    "/prices/:app_id/:price_id/price-item",
    {
      operationId: "previewPriceItem",
      tags,
      summary: "Fee preview: the price_item a payment of this price would record now (docs/fees.md)",
      params: PriceParams,
      querystring: PriceItemQuery,
      resource: PriceItem,
    },
    (request) =>
      previewPriceItem(deps, request.actor, request.params.app_id, request.params.price_id, request.query),
  );

  route.update(
    app,
    "/prices/:app_id/:price_id",
    {
      operationId: "updatePrice",
      tags,
      summary: "Change a price; `expired: true` expires it now",
      params: PriceParams,
      body: UpdatePriceBody,
      resource: Price,
    },
    (request) =>
      pricesService.updatePrice(
        deps,
        request.actor,
        request.params.app_id,
        request.params.price_id,
        request.body,
      ),
  );

  route.noContent(
    app,
    "/prices/:app_id/:price_id",
    {
      operationId: "deletePrice",
      tags,
      summary: "Delete a price; one that payments refer to is expired instead",
      params: PriceParams,
    },
    (request) =>
      pricesService.deletePrice(deps, request.actor, request.params.app_id, request.params.price_id),
  );

  route.get(
    app,
    "/p/:price_id",
    {
      config: { public: true },
      operationId: "getPublicPrice",
      tags,
      summary: "The price's public page (JSON until the hosted checkout exists); counts a view",
      security: [],
      params: PublicPriceParams,
      resource: PublicPrice,
    },
    (request) => pricesService.viewPublicPrice(deps, request.params.price_id),
  );
}
