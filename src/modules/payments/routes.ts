import type { Deps } from "../../deps.ts";
import { AppParams } from "../../platform/http/params.ts";
import * as route from "../../platform/http/routes.ts";
import type { Server } from "../../platform/http/server.ts";
import {
  ConfirmPaymentBody,
  CreatePaymentBody,
  ListPaymentsQuery,
  NEW_PAYMENT_EXAMPLE,
  Payment,
  PaymentParams,
  ReasonBody,
  RefundBody,
  SellerBody,
} from "./schemas.ts";
import * as service from "./service.ts";

const tags = ["payments"];

export async function paymentRoutes(app: Server, deps: Deps) {
  route.list(
    app,
    "/payments/:app_id",
    {
      operationId: "listPayments",
      tags,
      summary: "The app's payments, newest first; filter by status, price, id prefix, email, amount or date",
      params: AppParams,
      querystring: ListPaymentsQuery,
      item: Payment,
      answer: "Payments",
    },
    (request, page) => service.listPayments(deps, request.actor, request.params.app_id, page, request.query),
  );

  route.created(
    app,
    "/payments/:app_id",
    {
      config: { answerExample: NEW_PAYMENT_EXAMPLE },
      operationId: "createPayment",
      tags,
      summary: "Create a pending payment for a price; the fees and rate are fixed now",
      params: AppParams,
      body: CreatePaymentBody,
      resource: Payment,
    },
    (request) =>
      service.createPayment(
        deps,
        request.actor,
        request.params.app_id,
        request.body,
        request.idempotency && `${request.idempotency.scope} ${request.idempotency.key}`,
      ),
  );

  route.get(
    app,
    "/payments/:app_id/:payment_id",
    {
      operationId: "getPayment",
      tags,
      summary: "One payment",
      params: PaymentParams,
      resource: Payment,
    },
    (request) => service.getPayment(deps, request.actor, request.params.app_id, request.params.payment_id),
  );

  paymentActionRoutes(app, deps);
}

/** What is done to a payment: each answers it as it now is. */
function paymentActionRoutes(app: Server, deps: Deps) {
  route.update(
    app,
    "/payments/:app_id/:payment_id/confirm",
    {
      operationId: "confirmPayment",
      tags,
      summary: "Pay with a payment method: the provider authorises (card) or debits (bank) in a job",
      params: PaymentParams,
      body: ConfirmPaymentBody,
      method: "POST",
      resource: Payment,
    },
    (request) =>
      service.confirmPayment(
        deps,
        request.actor,
        request.params.app_id,
        request.params.payment_id,
        request.body,
        {
          ipAddress: request.ip,
          userAgent: String(request.headers["user-agent"] ?? ""),
        },
        request.idempotency && `${request.idempotency.scope} ${request.idempotency.key}`,
      ),
  );

  route.update(
    app,
    "/payments/:app_id/:payment_id/cancel",
    {
      operationId: "cancelPayment",
      tags,
      summary: "Cancel a pending payment or release a card hold",
      params: PaymentParams,
      body: ReasonBody,
      method: "POST",
      resource: Payment,
    },
    (request) =>
      service.cancelPayment(
        deps,
        request.actor,
        request.params.app_id,
        request.params.payment_id,
        request.body?.reason,
        request.idempotency && `${request.idempotency.scope} ${request.idempotency.key}`,
      ),
  );

  paymentRepairRoutes(app, deps);
}

/** After the fact: a refund, a retry of what failed, another seller. */
function paymentRepairRoutes(app: Server, deps: Deps) {
  route.update(
    app,
    "/payments/:app_id/:payment_id/refund",
    {
      operationId: "refundPayment",
      tags,
      summary:
        "Refund a paid payment in full or in part, or a failed-captured or failed-transfers one in full",
      params: PaymentParams,
      body: RefundBody,
      method: "POST",
      resource: Payment,
    },
    (request) =>
      service.refundPayment(
        deps,
        request.actor,
        request.params.app_id,
        request.params.payment_id,
        request.body ?? {},
        request.idempotency && `${request.idempotency.scope} ${request.idempotency.key}`,
      ),
  );

  route.update(
    app,
    "/payments/:app_id/:payment_id/retry",
    {
      operationId: "retryPayment",
      tags,
      summary: "Retry the failed step: transfers (failed-transfers) or the contract call (failed-captured)",
      params: PaymentParams,
      method: "POST",
      resource: Payment,
    },
    (request) =>
      service.retryPayment(
        deps,
        request.actor,
        request.params.app_id,
        request.params.payment_id,
        request.idempotency && `${request.idempotency.scope} ${request.idempotency.key}`,
      ),
  );

  route.update(
    app,
    "/payments/:app_id/:payment_id/seller",
    {
      operationId: "repointPaymentSeller",
      tags,
      summary:
        "Point the payment's seller share at another payable seller of the app (then retry a failed-transfers payment)",
      description:
        "For a payment whose seller share is not yet transferred (pending, hold, failed-captured or failed-transfers): " +
        "409 `seller_not_payable` when the new seller cannot receive transfers now, 409 `invalid_state_transition` " +
        "once the share was transferred or the payment is settled (docs/kyc.md, Deleting a seller).",
      params: PaymentParams,
      body: SellerBody,
      method: "POST",
      resource: Payment,
    },
    (request) =>
      service.repointSeller(
        deps,
        request.actor,
        request.params.app_id,
        request.params.payment_id,
        request.body.kyc_id,
      ),
  );
}
