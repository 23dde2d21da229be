import type { Deps } from "../../deps.ts";
import * as route from "../../platform/http/routes.ts";
import type { Server } from "../../platform/http/server.ts";
import { Collection, CreateCollectionBody, CreateTreeBody, SolanaWalletParams, Tree } from "./schemas.ts";
import * as solana from "./service.ts";

const tags = ["solana"];
const base = "/solana/compression/:app_id/:wallet_id";

export async function solanaRoutes(app: Server, deps: Deps) {
  route.created(
    app,
    `${base}/trees`,
    {
      operationId: "createTree",
      tags,
      summary:
        "Create a compressed-NFT (Bubblegum) tree paid by the wallet; answered pending, the transaction is sent by a job",
      params: SolanaWalletParams,
      body: CreateTreeBody,
      resource: Tree,
    },
    (request) =>
      solana.createTree(deps, request.actor, request.params.app_id, request.params.wallet_id, request.body),
  );

  route.list(
    app,
    `${base}/trees`,
    {
      operationId: "listTrees",
      tags,
      summary: "Trees created with the wallet",
      params: SolanaWalletParams,
      item: Tree,
      answer: "Trees, newest first",
    },
    (request, page) =>
      solana.listTrees(deps, request.actor, request.params.app_id, request.params.wallet_id, page),
  );

  route.created(
    app,
    `${base}/collections`,
    {
      operationId: "createCollection",
      tags,
      summary:
        "Create a collection NFT (sized, Metaplex) owned by the wallet; answered pending, the transaction is sent by a job",
      params: SolanaWalletParams,
      body: CreateCollectionBody,
      resource: Collection,
    },
    (request) =>
      solana.createCollection(
        deps,
        request.actor,
        request.params.app_id,
        request.params.wallet_id,
        request.body,
      ),
  );

  route.list(
    app,
    `${base}/collections`,
    {
      operationId: "listCollections",
      tags,
      summary: "Collections created with the wallet",
      params: SolanaWalletParams,
      item: Collection,
      answer: "Collections, newest first",
    },
    (request, page) =>
      solana.listCollections(deps, request.actor, request.params.app_id, request.params.wallet_id, page),
  );
}
