import type { Deps } from "../../deps.ts";
import { ListQuery, listResponse, pageOf, setListHeaders } from "../../platform/http/pagination.ts";
import { NoContent } from "../../platform/http/schemas.ts";
import type { Server } from "../../platform/http/server.ts";
import { AppParams } from "../apps/schemas.ts";
import { CreateWalletBody, UpdateWalletBody, Wallet, WalletParams } from "./schemas.ts";
import * as walletsService from "./service.ts";

const tags = ["wallets"];

export async function walletRoutes(app: Server, deps: Deps) {
  app.get(
    "/wallets/:app_id",
    {
      schema: {
        operationId: "listWallets",
        tags,
        summary: "Wallets of an app",
        params: AppParams,
        querystring: ListQuery,
        response: { 200: listResponse(Wallet, "Wallets, newest first; secrets are null") },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { items, total, neighbours } = await walletsService.listWallets(
        deps,
        request.actor,
        request.params.app_id,
        page,
      );
      setListHeaders(request, reply, page, total, neighbours);
      return items;
    },
  );

  app.post(
    "/wallets/:app_id",
    {
      schema: {
        operationId: "createWallet",
        tags,
        summary: "Create a wallet: the service generates the key unless key material is given",
        params: AppParams,
        body: CreateWalletBody,
        response: { 201: Wallet },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await walletsService.createWallet(deps, request.actor, request.params.app_id, request.body)),
  );

  app.get(
    "/wallets/:app_id/:wallet_id",
    {
      schema: {
        operationId: "getWallet",
        tags,
        summary: "One wallet",
        params: WalletParams,
        response: { 200: Wallet },
      },
    },
    async (request) =>
      walletsService.getWallet(deps, request.actor, request.params.app_id, request.params.wallet_id),
  );

  app.patch(
    "/wallets/:app_id/:wallet_id",
    {
      schema: {
        operationId: "updateWallet",
        tags,
        summary: "Rename a wallet or replace its key material",
        params: WalletParams,
        body: UpdateWalletBody,
        response: { 200: Wallet },
      },
    },
    async (request) =>
      walletsService.updateWallet(
        deps,
        request.actor,
        request.params.app_id,
        request.params.wallet_id,
        request.body,
      ),
  );

  app.delete(
    "/wallets/:app_id/:wallet_id",
    {
      schema: {
        operationId: "deleteWallet",
        tags,
        summary: "Delete a wallet; 409 while a trigger uses it",
        params: WalletParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await walletsService.deleteWallet(deps, request.actor, request.params.app_id, request.params.wallet_id);
      return reply.code(204).send(null);
    },
  );
}
