import { Type } from "typebox";
import type { Deps } from "../../deps.ts";
import { oneOf } from "../../platform/http/literals.ts";
import * as route from "../../platform/http/routes.ts";
import { exampleOf, nameSchemas, withExamples } from "../../platform/http/schema-docs.ts";
import { Nullable, Timestamp } from "../../platform/http/schemas.ts";
import type { Server } from "../../platform/http/server.ts";
import { getDeletedAppPayment, refundDeletedAppPayment } from "./deleted-app.ts";
import { PaymentParams, PriceItem, ReasonBody } from "./schemas.ts";
import { PAYMENT_STATUSES } from "./tables.ts";

const tags = ["payments"];

export const DeletedAppPayment = withExamples(
  Type.Object(
    {
      id: Type.String({ description: "The payment's id (`pay_…`)" }),
      app_id: Type.String({ description: "The deleted app's id" }),
      status: oneOf(PAYMENT_STATUSES, { description: "Where the payment is (docs/payments.md, States)" }),
      final_amount: Type.Number({ description: "What the shopper was charged, in the charge currency" }),
      payment_provider: Type.Union([Type.Literal("card"), Type.Literal("us_bank_account")], {
        description: "How the shopper paid",
      }),
      transaction_id: Nullable(Type.String({ description: "The chain transaction, if the trigger ran" })),
      transaction_response: Type.Record(Type.String(), Type.Unknown(), {
        description: "What the provider and the chain answered; `error` is the last failure",
      }),
      price_item: PriceItem,
      kyc_id: Nullable(Type.String({ description: "The seller whose share this payment paid out" })),
      shopper_email: Nullable(Type.String({ description: "Where the receipt was sent" })),
      created_at: Timestamp,
      updated_at: Timestamp,
    },
    { description: "A payment of a deleted app, without the app and its price (both gone)" },
  ),
  {
    id: "pay_01m87s3v8k4r2fjc23vtvkbtjm",
    app_id: "app_01m87s3v8k4r2fjc23vtvkbtj0",
    status: "refunded",
    final_amount: 25.99,
    payment_provider: "card",
    transaction_id: null,
    transaction_response: { error: null },
    price_item: exampleOf(PriceItem),
    kyc_id: null,
    shopper_email: "ada@example.com",
    created_at: "2026-11-24T21:30:00.000Z",
    updated_at: "2026-11-25T09:00:00.000Z",
  },
);
nameSchemas({ DeletedAppPayment });

/**
 * A deleted app's payments stay refundable by the users who owned it when it was deleted
 * (docs/payments.md, Deleting an app): read one, refund it. Anyone else, and API keys, read 404.
 */
export async function deletedAppPaymentRoutes(app: Server, deps: Deps) {
  route.get(
    app,
    "/deleted-apps/:app_id/payments/:payment_id",
    {
      operationId: "getDeletedAppPayment",
      tags,
      summary: "A payment of an app you owned when it was deleted",
      params: PaymentParams,
      resource: DeletedAppPayment,
    },
    (request) => getDeletedAppPayment(deps, request.actor, request.params.app_id, request.params.payment_id),
  );

  route.update(
    app,
    "/deleted-apps/:app_id/payments/:payment_id/refund",
    {
      operationId: "refundDeletedAppPayment",
      tags,
      summary: "Refund (in full) a paid payment of an app you owned when it was deleted",
      params: PaymentParams,
      body: ReasonBody,
      method: "POST",
      resource: DeletedAppPayment,
    },
    (request) =>
      refundDeletedAppPayment(
        deps,
        request.actor,
        request.params.app_id,
        request.params.payment_id,
        request.body?.reason,
      ),
  );
}
