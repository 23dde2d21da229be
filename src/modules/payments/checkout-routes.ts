import { randomBytes } from "node:crypto";
import type { FastifyError, FastifyReply } from "fastify";
import { Type } from "typebox";
import type { Deps } from "../../deps.ts";
import { AppError, notFound } from "../../platform/http/errors.ts";
import { serveScript } from "../../platform/http/html.ts";
import { createdRoute } from "../../platform/http/routes.ts";
import { Body, exampleOf, Nullable, withExamples } from "../../platform/http/schemas.ts";
import type { Server } from "../../platform/http/server.ts";
import { formatAmount } from "../../platform/money/amount.ts";
import { currencyOf } from "../../platform/money/currencies.ts";
import type { PaymentProvider } from "../../platform/money/settings.ts";
import { CARD_NUMBER_SCRIPT, CARD_NUMBER_URL } from "../../platform/pages/card-number.ts";
import { viewPublicPrice } from "../prices/service.ts";
import { triggerFormAssetRoute } from "../triggers/form.ts";
import { CHECKOUT_URL, checkoutErrorPage, checkoutPage, checkoutPolicy } from "./checkout-page.ts";
import { CHECKOUT_SCRIPT } from "./checkout-script.ts";
import { openCheckoutPayment, withdrawCheckoutPayment } from "./checkout-tries.ts";
import { checkoutView, paymentSummary, priceById, quoteCheckout } from "./checkout-view.ts";
import type { PaymentRow } from "./lifecycle.ts";
import { confirmationOf } from "./presenters.ts";
import { ConfirmPaymentBody } from "./schemas.ts";
import { paymentByToken, requestAuthorization } from "./service.ts";

const tags = ["checkout"];
const PriceId = Type.String({ maxLength: 64, description: "The price's id" });
const PriceParams = Type.Object({ price_id: PriceId });
const PaymentParams = Type.Object({
  price_id: PriceId,
  payment_id: Type.String({ maxLength: 64, description: "The payment's id" }),
});
const TokenHeader = Type.Object({
  "x-payment-token": Type.String({
    minLength: 10,
    maxLength: 200,
    description: "The payment's token (`pt_…`), answered when the payment was started: the page's credential",
  }),
});
const Method = Type.Union([Type.Literal("card"), Type.Literal("us_bank_account")], {
  description: "How the shopper pays: `card` (default) or `us_bank_account`",
});

const Summary = Type.Object(
  {
    price: Type.String({ description: "The price in its own currency, formatted" }),
    converted: Nullable(Type.String({ description: "The price in the charge currency, when it differs" })),
    fees: Type.String({ description: "Fees added on top (price_item.amount_transaction_fee)" }),
    total: Type.String({ description: "What the shopper is charged (price_item.amount_total)" }),
  },
  { description: "What paying the price costs, formatted for display" },
);

const ShopperPayment = Type.Object({
  id: Type.String({ description: "The payment's id (`pay_…`)" }),
  status: Type.String({ description: "The payment's status, as Payment.status" }),
  final_amount: Type.Number({ description: "What the shopper is charged, in major units of currency" }),
  currency: Type.String({ description: "The charge currency" }),
  summary: Summary,
  requires_payment_method: Type.Boolean({
    description: "Pending and waiting for a (new) payment method: confirm it again",
  }),
  next_action: Nullable(
    Type.Object(
      {
        type: Type.String({ description: "The kind of step, e.g. redirect_to_url" }),
        url: Type.String({ description: "Where to send the shopper" }),
      },
      { description: "A 3-D Secure step to complete" },
    ),
  ),
  error: Nullable(
    Type.Object(
      {
        code: Type.String({ description: "The provider's code, e.g. `card_declined`" }),
        message: Type.String({ description: "What to tell the shopper" }),
      },
      { description: "Why the last try failed, while the payment waits for another method or has failed" },
    ),
  ),
  transaction_id: Nullable(Type.String({ description: "The chain transaction, once the trigger ran" })),
  transaction_url: Nullable(Type.String({ description: "The transaction in the chain's explorer" })),
  confirmation_status: Type.Object(
    {
      progress: Type.Number({ description: "0 to 100" }),
      confirmed: Type.Boolean({ description: "Whether the chain call is confirmed" }),
    },
    { description: "How far the chain has confirmed the contract call" },
  ),
});

withExamples(Summary, { price: "$25.00", converted: null, fees: "$0.75", total: "$25.75" });
withExamples(ShopperPayment, {
  id: "pay_01m87s3v8k4r2fjc23vtvkbtjm",
  status: "pending",
  final_amount: 25.75,
  currency: "usd",
  summary: exampleOf(Summary),
  requires_payment_method: false,
  next_action: {
    type: "redirect_to_url",
    url: "https://payments.example.com/sandbox/3ds/pi_01m87s3v8k4r2fjc23vtvkbtk3",
  },
  error: null,
  transaction_id: null,
  transaction_url: null,
  confirmation_status: { progress: 0, confirmed: false },
});
const TOKEN = "pt_cGF5LXRva2VuLWV4YW1wbGUtZm9yLXRoZS1jaGVja291dA";

/** What the shopper's page may see of its payment: what it charges, no shares, no app, no other payments. */
function shopperView(row: PaymentRow) {
  const awaitingMethod = row.status === "pending" && row.authState === "none";
  const error = (row.transactionResponse as { error?: { code?: string; message?: string } | null }).error;
  // A decline is news only while the payment waits for another method, or once it failed.
  const showError = error && (awaitingMethod || row.status !== "pending");
  const confirmation = confirmationOf(row) as { progress?: number; confirmed?: boolean };
  return {
    id: row.id,
    status: row.status,
    final_amount: formatAmount(row.chargeAmount, currencyOf(row.chargeCurrency, "charge_currency")),
    currency: row.chargeCurrency,
    summary: paymentSummary(row),
    requires_payment_method: awaitingMethod,
    next_action: row.nextAction ?? null,
    error: showError
      ? { code: error.code ?? "payment_failed", message: error.message ?? "Payment failed" }
      : null,
    transaction_id: row.transactionId,
    transaction_url: row.transactionUrl,
    confirmation_status: { progress: confirmation.progress ?? 0, confirmed: confirmation.confirmed ?? false },
  };
}

async function shopperPayment(deps: Deps, priceId: string, paymentId: string, token: string) {
  const payment = await paymentByToken(deps, token);
  if (payment.id !== paymentId || payment.priceId !== priceId) throw notFound("Payment");
  return payment;
}

const pageHeaders = (reply: FastifyReply, policy: string) =>
  reply
    .header("content-security-policy", policy)
    .header("referrer-policy", "no-referrer")
    .header("x-content-type-options", "nosniff")
    .header("cache-control", "no-store")
    .type("text/html; charset=utf-8");

/** The page's own failures read as a page: 404 for no such price, plain words, the request id for 5xx. */
function pageError(error: FastifyError | AppError): { status: number; heading: string; message: string } {
  const status =
    error instanceof AppError ? error.status : error.validation ? 404 : (error.statusCode ?? 500);
  if (status === 404 || status === 400) {
    return {
      status: 404,
      heading: "Checkout not found",
      message: "There is nothing to pay at this address. Check the link, or ask the seller for a new one.",
    };
  }
  if (status < 500 && error instanceof AppError) {
    return { status, heading: "This price cannot be paid right now", message: error.message };
  }
  return {
    status: 500,
    heading: "Something went wrong",
    message: "Something went wrong on our side. Please try again in a moment.",
  };
}

/** The hosted checkout: a page per price, and the few calls its script makes with the payment token. */
export async function checkoutRoutes(app: Server, deps: Deps) {
  triggerFormAssetRoute(app);
  serveScript(app, CHECKOUT_URL, CHECKOUT_SCRIPT);
  serveScript(app, CARD_NUMBER_URL, CARD_NUMBER_SCRIPT);

  // The page is for a person: every failure of it is a page too, never a problem document.
  await app.register(async (scope) => {
    const page = scope as unknown as Server;
    page.setErrorHandler((error: FastifyError | AppError, request, reply) => {
      const { status, heading, message } = pageError(error);
      if (status >= 500) request.log.error({ err: error }, "checkout page error");
      const nonce = randomBytes(16).toString("base64");
      return pageHeaders(reply.code(status), checkoutPolicy(nonce, null)).send(
        checkoutErrorPage(heading, message, nonce, { requestId: status >= 500 ? request.id : undefined }),
      );
    });
    page.get(
      "/checkout/:price_id",
      {
        config: { public: true, htmlErrors: true },
        schema: {
          operationId: "getCheckoutPage",
          tags,
          summary: "Hosted checkout page (HTML); counts a view. 404/410 pages for unknown/expired prices",
          params: Type.Object({ price_id: Type.String({ maxLength: 200, description: "The price's id" }) }),
        },
      },
      async (request, reply) => {
        await viewPublicPrice(deps, request.params.price_id);
        const row = await priceById(deps, request.params.price_id);
        const { config } = deps;
        // Cards go through the app's provider: with Stripe the page needs Stripe.js, and only then.
        const stripe =
          config.paymentsProvider === "stripe" && config.stripePublishableKey
            ? { publishableKey: config.stripePublishableKey, jsUrl: config.stripeJsUrl }
            : null;
        const nonce = randomBytes(16).toString("base64");
        const methods: PaymentProvider[] = stripe ? ["card"] : ["card", "us_bank_account"];
        const view = await checkoutView(deps, row, methods);
        if (view.price.expired) {
          return pageHeaders(reply.code(410), checkoutPolicy(nonce, null)).send(
            checkoutErrorPage(
              "No longer available",
              `${view.price.name} can no longer be paid. Ask the seller for a new link.`,
              nonce,
              { brand: view.brand },
            ),
          );
        }
        pageHeaders(reply, checkoutPolicy(nonce, stripe?.jsUrl ?? null));
        return checkoutPage(
          { ...view, sandbox: config.sandbox, stripe },
          config.money.chargeCurrency.code,
          nonce,
        );
      },
    );
  });

  app.get(
    "/checkout/:price_id/quote",
    {
      config: { public: true },
      schema: {
        operationId: "getCheckoutQuote",
        tags,
        summary: "What paying this price costs the shopper now: price, fees and total, formatted",
        params: PriceParams,
        querystring: Type.Object({
          payment_provider: Type.Optional(Method),
          amount: Type.Optional(Type.String({ maxLength: 64, description: "Dynamic prices only" })),
        }),
        response: { 200: Summary },
      },
    },
    async (request) => {
      const price = await priceById(deps, request.params.price_id);
      const { payment_provider, amount } = request.query;
      return quoteCheckout(deps, price, payment_provider ?? "card", amount, "/query/amount");
    },
  );

  createdRoute(
    app,
    "/checkout/:price_id/payments",
    {
      config: { public: true },
      operationId: "createCheckoutPayment",
      tags,
      summary: "Start paying a price from the hosted page; answers the payment token once",
      params: PriceParams,
      body: withExamples(
        Body({
          email: Type.String({
            format: "email",
            maxLength: 254,
            description: "The shopper's email; the receipt goes here",
          }),
          payment_provider: Method,
          amount: Type.Optional(
            Type.Union([Type.Number(), Type.String({ maxLength: 64 })], {
              description: "Only for dynamic prices: at least the price's amount",
            }),
          ),
          trigger_data_input: Type.Optional(
            Body(
              {
                params_data_input: Type.Record(Type.String(), Type.Unknown(), {
                  description: "The trigger's parameters, keyed by name (checked against its params_data)",
                }),
              },
              "Input for the price's trigger, run once the payment is paid",
            ),
          ),
        }),
        { email: "ada@example.com", payment_provider: "card" },
      ),
      resource: withExamples(
        Type.Object({
          id: Type.String({ description: "The payment's id (`pay_…`)" }),
          payment_token: Type.String({
            description: "The payment's token: send it as `x-payment-token`; answered once",
          }),
          status: Type.String({ description: "The payment's status: `pending`" }),
        }),
        { id: "pay_01m87s3v8k4r2fjc23vtvkbtjm", payment_token: TOKEN, status: "pending" },
      ),
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

  app.get(
    "/checkout/:price_id/payments/:payment_id",
    {
      config: { public: true },
      schema: {
        operationId: "getCheckoutPayment",
        tags,
        summary: "The shopper's view of their payment (needs the payment token)",
        params: PaymentParams,
        headers: TokenHeader,
        response: { 200: ShopperPayment },
      },
    },
    async (request) =>
      shopperView(
        await shopperPayment(
          deps,
          request.params.price_id,
          request.params.payment_id,
          request.headers["x-payment-token"],
        ),
      ),
  );

  app.post(
    "/checkout/:price_id/payments/:payment_id/confirm",
    {
      config: { public: true },
      schema: {
        operationId: "confirmCheckoutPayment",
        tags,
        summary:
          "Pay with a card or bank account from the hosted page (needs the payment token); again after a decline",
        params: PaymentParams,
        headers: TokenHeader,
        body: ConfirmPaymentBody,
        response: { 200: ShopperPayment },
      },
    },
    async (request) => {
      const payment = await shopperPayment(
        deps,
        request.params.price_id,
        request.params.payment_id,
        request.headers["x-payment-token"],
      );
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

  app.post(
    "/checkout/:price_id/payments/:payment_id/cancel",
    {
      config: { public: true },
      schema: {
        operationId: "cancelCheckoutPayment",
        tags,
        summary:
          "Withdraw a payment still waiting for a payment method (the shopper changed the order); needs the payment token",
        params: PaymentParams,
        headers: TokenHeader,
        response: { 200: ShopperPayment },
      },
    },
    async (request) => {
      const payment = await shopperPayment(
        deps,
        request.params.price_id,
        request.params.payment_id,
        request.headers["x-payment-token"],
      );
      return shopperView(await withdrawCheckoutPayment(deps, payment.id));
    },
  );
}
