import type { FastifyRequest } from "fastify";
import type { Deps } from "../../deps.ts";
import * as route from "../../platform/http/routes.ts";
import type { Server } from "../../platform/http/server.ts";
import {
  CheckoutPaymentParams,
  CheckoutPaymentStarted,
  CheckoutPriceParams,
  CreateCheckoutPaymentBody,
  ShopperPayment,
  TokenHeader,
} from "./checkout-schemas.ts";
import { shopperPayment, shopperView } from "./checkout-shopper.ts";
import { openCheckoutPayment, withdrawCheckoutPayment } from "./checkout-tries.ts";
import { priceById } from "./checkout-view.ts";
import { ConfirmPaymentBody } from "./schemas.ts";
import { requestAuthorization } from "./service.ts";

const tags = ["checkout"];

/** The payment the request's token opens; `TokenHeader` has checked the header is there. */
const paymentOf = (
  deps: Deps,
  request: FastifyRequest & { params: { price_id: string; payment_id: string } },
) =>
  shopperPayment(
    deps,
    request.params.price_id,
    request.params.payment_id,
    request.headers["x-payment-token"] as string,
  );

/** The shopper's payment, from the hosted page: started, read, confirmed, withdrawn. */
export function checkoutPaymentRoutes(app: Server, deps: Deps) {
  route.created(
    app,
    "/checkout/:price_id/payments",
    {
      config: { public: true },
      operationId: "createCheckoutPayment",
      tags,
      summary: "Start paying a price from the hosted page; answers the payment token once",
      params: CheckoutPriceParams,
      body: CreateCheckoutPaymentBody,
      resource: CheckoutPaymentStarted,
    },
    async (request) => {
      const price = await priceById(deps, request.params.price_id);
      const { row, token } = await openCheckoutPayment(
        deps,
        price.appId,
        {
          price_id: price.id,
          payment_provider: request.body.payment_provider,
          amount: request.body.amount,
          shopper_email: request.body.email,
          trigger_data_input: request.body.trigger_data_input,
        },
        request.ip,
      );
      return { id: row.id, payment_token: token, status: row.status };
    },
  );

  route.get(
    app,
    "/checkout/:price_id/payments/:payment_id",
    {
      config: { public: true },
      operationId: "getCheckoutPayment",
      tags,
      summary: "The shopper's view of their payment (needs the payment token)",
      params: CheckoutPaymentParams,
      headers: TokenHeader,
      resource: ShopperPayment,
    },
    async (request) => shopperView(await paymentOf(deps, request)),
  );

  route.update(
    app,
    "/checkout/:price_id/payments/:payment_id/confirm",
    {
      method: "POST",
      config: { public: true },
      operationId: "confirmCheckoutPayment",
      tags,
      summary:
        "Pay with a card or bank account from the hosted page (needs the payment token); again after a decline",
      params: CheckoutPaymentParams,
      headers: TokenHeader,
      body: ConfirmPaymentBody,
      resource: ShopperPayment,
    },
    async (request) => {
      const payment = await paymentOf(deps, request);
      // A 3-D Secure step comes back to this page, which carries on following the payment.
      const returnUrl = `${deps.config.publicUrl}/checkout/${encodeURIComponent(payment.priceId)}`;
      const updated = await requestAuthorization(
        deps,
        "shopper",
        payment,
        { payment_method: request.body.payment_method, return_url: returnUrl },
        { ipAddress: request.ip, userAgent: String(request.headers["user-agent"] ?? "") },
      );
      return shopperView(updated);
    },
  );

  route.update(
    app,
    "/checkout/:price_id/payments/:payment_id/cancel",
    {
      method: "POST",
      config: { public: true },
      operationId: "cancelCheckoutPayment",
      tags,
      summary:
        "Withdraw a payment still waiting for a payment method (the shopper changed the order); needs the payment token",
      params: CheckoutPaymentParams,
      headers: TokenHeader,
      resource: ShopperPayment,
    },
    async (request) => {
      const payment = await paymentOf(deps, request);
      return shopperView(await withdrawCheckoutPayment(deps, payment.id));
    },
  );
}
