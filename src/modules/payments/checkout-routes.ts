import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { Type } from "typebox";
import type { Deps } from "../../deps.ts";
import { notFound } from "../../platform/http/errors.ts";
import { Body, Nullable } from "../../platform/http/schemas.ts";
import type { Server } from "../../platform/http/server.ts";
import { formatAmount } from "../../platform/money/amount.ts";
import { currencyOf } from "../../platform/money/currencies.ts";
import { viewPublicPrice } from "../prices/service.ts";
import { prices } from "../prices/tables.ts";
import { checkoutPage, checkoutPolicy } from "./checkout-page.ts";
import type { PaymentRow } from "./lifecycle.ts";
import { ConfirmPaymentBody } from "./schemas.ts";
import { openPayment, paymentByToken, requestAuthorization } from "./service.ts";

const tags = ["checkout"];
const PriceParams = Type.Object({ price_id: Type.String({ maxLength: 64 }) });
const PaymentParams = Type.Object({
  price_id: Type.String({ maxLength: 64 }),
  payment_id: Type.String({ maxLength: 64 }),
});
const TokenHeader = Type.Object({ "x-payment-token": Type.String({ minLength: 10, maxLength: 200 }) });

const ShopperPayment = Type.Object({
  id: Type.String(),
  status: Type.String(),
  final_amount: Type.Number(),
  currency: Type.String(),
  next_action: Nullable(Type.Object({ type: Type.String(), url: Type.String() })),
  error: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
  transaction_id: Nullable(Type.String()),
  transaction_url: Nullable(Type.String()),
  confirmation_status: Type.Object({ progress: Type.Number(), confirmed: Type.Boolean() }),
});

/** What the shopper's page may see of its payment: no fees, no app, no other payments. */
function shopperView(row: PaymentRow) {
  const error = (row.transactionResponse as { error?: { code?: string; message?: string } | null }).error;
  const confirmation = row.confirmationStatus as { progress?: number; confirmed?: boolean };
  return {
    id: row.id,
    status: row.status,
    final_amount: formatAmount(row.chargeAmount, currencyOf(row.chargeCurrency, "charge_currency")),
    currency: row.chargeCurrency,
    next_action: row.nextAction ?? null,
    error: error
      ? { code: error.code ?? "payment_failed", message: error.message ?? "Payment failed" }
      : null,
    transaction_id: row.transactionId,
    transaction_url: row.transactionUrl,
    confirmation_status: { progress: confirmation.progress ?? 0, confirmed: confirmation.confirmed ?? false },
  };
}

async function priceById(deps: Deps, priceId: string) {
  const [price] = await deps.db.select().from(prices).where(eq(prices.id, priceId));
  if (!price) throw notFound("Price");
  return price;
}

async function shopperPayment(deps: Deps, priceId: string, paymentId: string, token: string) {
  const payment = await paymentByToken(deps, token);
  if (payment.id !== paymentId || payment.priceId !== priceId) throw notFound("Payment");
  return payment;
}

/** The hosted checkout: a page per price, and the few calls its script makes with the payment token. */
export async function checkoutRoutes(app: Server, deps: Deps) {
  app.get(
    "/checkout/:price_id",
    {
      config: { public: true },
      schema: { tags, summary: "Hosted checkout page (HTML); counts a view", params: PriceParams },
    },
    async (request, reply) => {
      const price = await viewPublicPrice(deps, request.params.price_id);
      const nonce = randomBytes(16).toString("base64");
      const { config } = deps;
      // Cards go through the app's provider: with Stripe the page needs Stripe.js, and only then.
      const stripe =
        config.paymentsProvider === "stripe" && config.stripePublishableKey
          ? { publishableKey: config.stripePublishableKey, jsUrl: config.stripeJsUrl }
          : null;
      reply
        .header("content-security-policy", checkoutPolicy(nonce, stripe?.jsUrl ?? null))
        .header("referrer-policy", "no-referrer")
        .header("x-content-type-options", "nosniff")
        .header("cache-control", "no-store")
        .type("text/html; charset=utf-8");
      return checkoutPage({ price, sandbox: config.sandbox, stripe }, nonce);
    },
  );

  app.post(
    "/checkout/:price_id/payments",
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Start paying a price from the hosted page; answers the payment token once",
        params: PriceParams,
        body: Body({
          email: Type.String({ format: "email", maxLength: 254 }),
          payment_provider: Type.Union([Type.Literal("card"), Type.Literal("us_bank_account")]),
          amount: Type.Optional(Type.Union([Type.Number(), Type.String({ maxLength: 64 })])),
        }),
        response: {
          201: Type.Object({ id: Type.String(), payment_token: Type.String(), status: Type.String() }),
        },
      },
    },
    async (request, reply) => {
      const price = await priceById(deps, request.params.price_id);
      const { row, token } = await openPayment(deps, "shopper", price.appId, {
        price_id: price.id,
        payment_provider: request.body.payment_provider,
        amount: request.body.amount,
        shopper_email: request.body.email,
      });
      return reply.code(201).send({ id: row.id, payment_token: token, status: row.status });
    },
  );

  app.get(
    "/checkout/:price_id/payments/:payment_id",
    {
      config: { public: true },
      schema: {
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
        tags,
        summary: "Pay with a card or bank account from the hosted page (needs the payment token)",
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
      const returnUrl = `${request.protocol}://${request.host}/checkout/${encodeURIComponent(payment.priceId)}`;
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
}
