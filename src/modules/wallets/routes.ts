import type { Deps } from "../../deps.ts";
import { AppParams } from "../../platform/http/params.ts";
import * as route from "../../platform/http/routes.ts";
import type { Server } from "../../platform/http/server.ts";
import { CreateWalletBody, SandboxBalanceBody, UpdateWalletBody, Wallet, WalletParams } from "./schemas.ts";
import * as walletsService from "./service.ts";

const tags = ["wallets"];

export async function walletRoutes(app: Server, deps: Deps) {
  route.list(
    app,
    "/wallets/:app_id",
    {
      operationId: "listWallets",
      tags,
      summary: "Wallets of an app",
      params: AppParams,
      item: Wallet,
      answer: "Wallets, newest first; secrets are null",
    },
    (request, page) => walletsService.listWallets(deps, request.actor, request.params.app_id, page),
  );

  route.created(
    app,
    "/wallets/:app_id",
    {
      operationId: "createWallet",
      tags,
      summary: "Create a wallet: the service generates the key unless key material is given",
      params: AppParams,
      body: CreateWalletBody,
      resource: Wallet,
    },
    (request) => walletsService.createWallet(deps, request.actor, request.params.app_id, request.body),
  );

  route.get(
    app,
    "/wallets/:app_id/:wallet_id",
    {
      operationId: "getWallet",
      tags,
      summary: "One wallet",
      params: WalletParams,
      resource: Wallet,
    },
    (request) =>
      walletsService.getWallet(deps, request.actor, request.params.app_id, request.params.wallet_id),
  );

  route.update(
    app,
    "/wallets/:app_id/:wallet_id",
    {
      operationId: "updateWallet",
      tags,
      summary: "Rename a wallet or replace its key material",
      params: WalletParams,
      body: UpdateWalletBody,
      resource: Wallet,
    },
    (request) =>
      walletsService.updateWallet(
        deps,
        request.actor,
        request.params.app_id,
        request.params.wallet_id,
        request.body,
      ),
  );

  route.noContent(
    app,
    "/wallets/:app_id/:wallet_id",
    {
      operationId: "deleteWallet",
      tags,
      summary: "Delete a wallet; 409 while a trigger uses it",
      params: WalletParams,
    },
    (request) =>
      walletsService.deleteWallet(deps, request.actor, request.params.app_id, request.params.wallet_id),
  );
}

/** Sandbox chains only: the faucet that sets a wallet's balance (docs/wallets.md, "Balance"). */
export async function sandboxWalletRoutes(app: Server, deps: Deps) {
  route.update(
    app,
    "/sandbox/wallets/:app_id/:wallet_id/balance",
    {
      operationId: "setSandboxWalletBalance",
      tags,
      summary: "Sandbox faucet: set a wallet's native balance on the sandbox chain",
      params: WalletParams,
      body: SandboxBalanceBody,
      method: "POST",
      resource: Wallet,
    },
    (request) =>
      walletsService.setSandboxWalletBalance(
        deps,
        request.actor,
        request.params.app_id,
        request.params.wallet_id,
        request.body.balance,
      ),
  );
}
