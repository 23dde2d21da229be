import type { FastifyError, FastifyReply } from "fastify";
import type { Deps } from "../../deps.ts";
import type { AppError } from "../../platform/http/errors.ts";
import { serveScript } from "../../platform/http/html.ts";
import * as route from "../../platform/http/routes.ts";
import type { Server } from "../../platform/http/server.ts";
import { CARD_NUMBER_SCRIPT, CARD_NUMBER_URL } from "../../platform/pages/card-number.ts";
import { triggerFormAssetRoute } from "../triggers/form.ts";
import { CHECKOUT_URL } from "./checkout-page.ts";
import { checkoutPaymentRoutes } from "./checkout-payment-routes.ts";
import { CheckoutPageParams, CheckoutPriceParams, QuoteQuery, Summary } from "./checkout-schemas.ts";
import { CHECKOUT_SCRIPT } from "./checkout-script.ts";
import { checkoutFailurePage, hostedCheckout, priceById, quoteCheckout } from "./checkout-view.ts";

const tags = ["checkout"];

const pageHeaders = (reply: FastifyReply, policy: string) =>
  reply
    .header("content-security-policy", policy)
    .header("referrer-policy", "no-referrer")
    .header("x-content-type-options", "nosniff")
    .header("cache-control", "no-store")
    .type("text/html; charset=utf-8");

/** The hosted checkout: a page per price, its quote, and the calls its script makes with the payment token. */
export async function checkoutRoutes(app: Server, deps: Deps) {
  triggerFormAssetRoute(app);
  serveScript(app, CHECKOUT_URL, CHECKOUT_SCRIPT);
  serveScript(app, CARD_NUMBER_URL, CARD_NUMBER_SCRIPT);
  await checkoutPageRoute(app, deps);

  route.get(
    app,
    "/checkout/:price_id/quote",
    {
      config: { public: true },
      operationId: "getCheckoutQuote",
      tags,
      summary: "What paying this price costs the shopper now: price, fees and total, formatted",
      params: CheckoutPriceParams,
      querystring: QuoteQuery,
      resource: Summary,
    },
    async (request) => {
      const price = await priceById(deps, request.params.price_id);
      const { payment_provider, amount } = request.query;
      return quoteCheckout(deps, price, payment_provider ?? "card", amount, "/query/amount");
    },
  );

  checkoutPaymentRoutes(app, deps);
}

/** The page itself: what it shows is decided in checkout-view.ts; this only answers it. */
async function checkoutPageRoute(app: Server, deps: Deps) {
  // The page is for a person: every failure of it is a page too, never a problem document.
  await app.register(async (scope) => {
    const page = scope as unknown as Server;
    page.setErrorHandler((error: FastifyError | AppError, request, reply) => {
      const { status, policy, html } = checkoutFailurePage(error, request.id);
      if (status >= 500) request.log.error({ err: error }, "checkout page error");
      return pageHeaders(reply.code(status), policy).send(html);
    });
    page.get(
      "/checkout/:price_id",
      {
        config: { public: true, htmlErrors: true },
        schema: {
          operationId: "getCheckoutPage",
          tags,
          summary: "Hosted checkout page (HTML); counts a view. 404/410 pages for unknown/expired prices",
          params: CheckoutPageParams,
        },
      },
      async (request, reply) => {
        const { status, policy, html } = await hostedCheckout(deps, request.params.price_id);
        return pageHeaders(reply.code(status), policy).send(html);
      },
    );
  });
}
