import type { Deps } from "../../deps.ts";
import { AppParams } from "../../platform/http/params.ts";
import * as route from "../../platform/http/routes.ts";
import type { Server } from "../../platform/http/server.ts";
import type { KycContext } from "./context.ts";
import { CreateKycBody, Kyc, KycEnvelope, KycListEnvelope, KycParams, UpdateKycBody } from "./schemas.ts";
import * as service from "./service.ts";

const tags = ["kyc"];

/** The interface's Seller KYC endpoints; every answer is wrapped in `{data: …}` as it says. */
export async function kycRoutes(app: Server, deps: Deps, ctx: KycContext) {
  app.post(
    "/apps/:app_id/kycs",
    {
      schema: {
        operationId: "createKyc",
        tags,
        summary: "Create a seller's KYC record, or answer the existing one for this identifier",
        description:
          "201 when created; 200 with the existing record (nothing created) when the identifier exists. " +
          "Call it each time the widget is shown and render `GET /kyc/{edit_token}`.",
        params: AppParams,
        body: CreateKycBody,
        response: { 200: KycEnvelope, 201: KycEnvelope },
      },
    },
    async (request, reply) => {
      const { kyc, created } = await service.createKyc(
        deps,
        ctx,
        request.actor,
        request.params.app_id,
        request.body,
      );
      return reply.code(created ? 201 : 200).send({ data: kyc });
    },
  );

  route.list(
    app,
    "/apps/:app_id/kycs",
    {
      operationId: "listKycs",
      tags,
      summary: "The app's KYC records, newest first",
      params: AppParams,
      item: Kyc,
      answer: "KYC records",
      wrapper: { schema: KycListEnvelope, wrap: (data) => ({ data }) },
    },
    (request, page) => service.listKycs(deps, ctx, request.actor, request.params.app_id, page),
  );

  route.get(
    app,
    "/apps/:app_id/kycs/:kyc_id",
    {
      operationId: "getKyc",
      tags,
      summary: "One KYC record",
      params: KycParams,
      resource: KycEnvelope,
    },
    async (request) => ({
      data: await service.getKyc(deps, ctx, request.actor, request.params.app_id, request.params.kyc_id),
    }),
  );

  route.update(
    app,
    "/apps/:app_id/kycs/:kyc_id",
    {
      operationId: "updateKyc",
      tags,
      summary: "Activate or deactivate a seller (inactive: no new payments for their prices)",
      params: KycParams,
      body: UpdateKycBody,
      resource: KycEnvelope,
    },
    async (request) => ({
      data: await service.setActive(
        deps,
        ctx,
        request.actor,
        request.params.app_id,
        request.params.kyc_id,
        request.body.active,
      ),
    }),
  );

  route.update(
    app,
    "/apps/:app_id/kycs/:kyc_id/refresh-token",
    {
      operationId: "refreshKycToken",
      tags,
      summary: "Regenerate the edit_token; the old one stops working at once",
      params: KycParams,
      resource: KycEnvelope,
    },
    async (request) => ({
      data: await service.refreshToken(
        deps,
        ctx,
        request.actor,
        request.params.app_id,
        request.params.kyc_id,
      ),
    }),
  );

  route.noContent(
    app,
    "/apps/:app_id/kycs/:kyc_id",
    {
      operationId: "deleteKyc",
      tags,
      summary: "Delete a KYC record; 409 naming what is open while payments for this seller are",
      description:
        "Refused (409, counts per kind in the problem's `open`) while payments paying this seller are pending, " +
        "processing, on hold, failed-captured or failed-transfers: settle them, or point their payout at another " +
        "seller (POST /payments/{app_id}/{payment_id}/seller) first (docs/kyc.md, Deleting a seller).",
      params: KycParams,
    },
    (request) => service.deleteKyc(deps, request.actor, request.params.app_id, request.params.kyc_id),
  );
}
