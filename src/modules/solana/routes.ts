import type { Deps } from "../../deps.ts";
import { ListQuery, listResponse, pageOf, setListHeaders } from "../../platform/http/pagination.ts";
import type { Server } from "../../platform/http/server.ts";
import { Collection, CreateCollectionBody, CreateTreeBody, SolanaWalletParams, Tree } from "./schemas.ts";
import * as solana from "./service.ts";

const tags = ["solana"];
const base = "/solana/compression/:app_id/:wallet_id";

export async function solanaRoutes(app: Server, deps: Deps) {
  app.post(
    `${base}/trees`,
    {
      schema: {
        operationId: "createTree",
        tags,
        summary:
          "Create a compressed-NFT (Bubblegum) tree paid by the wallet; answered pending, the transaction is sent by a job",
        params: SolanaWalletParams,
        body: CreateTreeBody,
        response: { 201: Tree },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await solana.createTree(
            deps,
            request.actor,
            request.params.app_id,
            request.params.wallet_id,
            request.body,
          ),
        ),
  );

  app.get(
    `${base}/trees`,
    {
      schema: {
        operationId: "listTrees",
        tags,
        summary: "Trees created with the wallet",
        params: SolanaWalletParams,
        querystring: ListQuery,
        response: { 200: listResponse(Tree, "Trees, newest first") },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { items, total, neighbours } = await solana.listTrees(
        deps,
        request.actor,
        request.params.app_id,
        request.params.wallet_id,
        page,
      );
      setListHeaders(request, reply, page, total, neighbours);
      return items;
    },
  );

  app.post(
    `${base}/collections`,
    {
      schema: {
        operationId: "createCollection",
        tags,
        summary:
          "Create a collection NFT (sized, Metaplex) owned by the wallet; answered pending, the transaction is sent by a job",
        params: SolanaWalletParams,
        body: CreateCollectionBody,
        response: { 201: Collection },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await solana.createCollection(
            deps,
            request.actor,
            request.params.app_id,
            request.params.wallet_id,
            request.body,
          ),
        ),
  );

  app.get(
    `${base}/collections`,
    {
      schema: {
        operationId: "listCollections",
        tags,
        summary: "Collections created with the wallet",
        params: SolanaWalletParams,
        querystring: ListQuery,
        response: { 200: listResponse(Collection, "Collections, newest first") },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { items, total, neighbours } = await solana.listCollections(
        deps,
        request.actor,
        request.params.app_id,
        request.params.wallet_id,
        page,
      );
      setListHeaders(request, reply, page, total, neighbours);
      return items;
    },
  );
}
