import multipart from "@fastify/multipart";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { Type } from "typebox";
import type { Deps } from "../../deps.ts";
import { hashToken } from "../../platform/auth/secrets.ts";
import { AppError } from "../../platform/http/errors.ts";
import { withExamples } from "../../platform/http/schema-docs.ts";
import { Body } from "../../platform/http/schemas.ts";
import type { Server } from "../../platform/http/server.ts";
import { fieldErrors } from "../../platform/http/validation.ts";
import { usBankAccountNumbers } from "../../platform/money/schemas.ts";
import { appBrand } from "../apps/for-pages.ts";
import type { KycContext } from "./context.ts";
import { contentSecurityPolicy, errorPage, widgetPage } from "./page.ts";
import * as widget from "./widget.ts";

const tags = ["kyc widget"];
// The edit token is in every widget URL, and request logs carry URLs: the widget's routes log
// only warnings and errors, which carry no URL.
const QUIET = "warn";
const DOCUMENT_LIMIT = 1024 * 1024;
const Token = Type.Object({
  edit_token: Type.String({
    minLength: 20,
    maxLength: 128,
    description: "The KYC record's edit_token (`kyc_et_…`): the widget's credential",
  }),
});
const Text = (maxLength: number, description: string) =>
  Type.String({ minLength: 1, maxLength, description });

const DetailsForm = Body({
  first_name: Text(100, "The seller's given name"),
  last_name: Text(100, "The seller's family name"),
  email: Type.String({ format: "email", maxLength: 320, description: "The seller's email" }),
  dob: Type.String({ format: "date", description: "Date of birth, YYYY-MM-DD" }),
  country: Type.Union([Type.Literal("US"), Type.Literal("GB"), Type.Literal("FR"), Type.Literal("DE")], {
    description: "Country of residence",
  }),
  address_line1: Text(200, "Street address"),
  city: Text(100, "City"),
  postal_code: Text(20, "Postal code"),
  tos: Type.Literal("accepted", { description: "The seller accepts the provider's terms" }),
});
withExamples(DetailsForm, {
  first_name: "Jane",
  last_name: "Doe",
  email: "seller@example.com",
  dob: "1990-04-12",
  country: "US",
  address_line1: "1 Main Street",
  city: "Springfield",
  postal_code: "12345",
  tos: "accepted",
});

const BankForm = Body({
  account_holder_name: Text(200, "The account holder's name"),
  ...usBankAccountNumbers,
  country: Type.Literal("US", { description: "The bank's country: US only" }),
  currency: Type.Literal("usd", { description: "The payout currency: usd only" }),
});
withExamples(BankForm, {
  account_holder_name: "Jane Doe",
  routing_number: "110000000",
  account_number: "000123456789",
  country: "US",
  currency: "usd",
});

function secureHeaders(reply: FastifyReply, csp: string) {
  reply.header("content-security-policy", csp);
  // The token is in the URL: it must not leak through a Referer or a cache.
  reply.header("referrer-policy", "no-referrer");
  reply.header("cache-control", "no-store");
  reply.header("x-content-type-options", "nosniff");
}

/** The hosted KYC widget: HTML pages and form posts, authenticated by the edit token alone. */
export async function kycWidgetRoutes(server: Server, deps: Deps, ctx: KycContext) {
  await server.register(async (scope) => {
    const app = scope as unknown as Server;
    await app.register(multipart, { limits: { fileSize: DOCUMENT_LIMIT, files: 1, fields: 0, parts: 1 } });
    app.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 64 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    app.addHook("onRequest", async (request: FastifyRequest<{ Params: { edit_token?: string } }>, reply) => {
      secureHeaders(reply, contentSecurityPolicy(null));
      await deps.rateLimiter.hit("kyc_widget_per_ip", request.ip);
      if (request.params.edit_token) {
        await deps.rateLimiter.hit("kyc_widget_per_token", hashToken(request.params.edit_token));
      }
    });
    app.setErrorHandler(widgetError);

    widgetPageRoutes(app, deps, ctx);
  });
}

/** Browsers get pages, not problem documents, for every failure of the widget. */
function widgetError(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  let status = 500;
  let message = "Something went wrong on our side";
  let details: string[] = [];
  if (error instanceof AppError) {
    status = error.status;
    message = error.message;
    if (error.headers) reply.headers(error.headers);
    details = (error.errors ?? []).map((e) => `${e.path}: ${e.message}`);
  } else if (error.validation) {
    status = 400;
    message = "Some fields are not valid";
    details = fieldErrors(error.validation as Parameters<typeof fieldErrors>[0], "body").map(
      (e) => `${e.path}: ${e.message}`,
    );
  } else if (error.statusCode && error.statusCode < 500) {
    status = error.statusCode;
    message = status === 413 ? "The file is too large (1 MiB at most)" : "The request is not valid";
  } else {
    request.log.error({ err: error }, "widget error");
  }
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .send(errorPage(status, message, details));
}

/** A form post of the widget: no credential but its token, errors as pages, a 303 (`redirect` says where). */
const formPost = (redirect: string) => ({ public: true, htmlErrors: true, redirect });
const SAVED = "Saved: back to the widget page, which shows what is still needed";

/** Where each form post answers: the page again, by a 303. */
const done = (reply: FastifyReply, token: string) => reply.redirect(`/kyc/${encodeURIComponent(token)}`, 303);

/** The widget's page and the forms it posts, each answering with the page again (303). */
function widgetPageRoutes(app: Server, deps: Deps, ctx: KycContext) {
  app.get(
    "/kyc/:edit_token",
    {
      config: { public: true, htmlErrors: true },
      logLevel: QUIET,
      schema: { operationId: "getKycWidget", tags, summary: "The hosted KYC/payout page", params: Token },
    },
    async (request, reply) => {
      const { kyc, app: owner } = await widget.recordByToken(deps, request.params.edit_token);
      const brand = await appBrand(deps.db, kyc.appId);
      secureHeaders(reply, contentSecurityPolicy(owner, ctx.provider.onboardingOrigin, brand));
      return reply
        .type("text/html; charset=utf-8")
        .send(
          widgetPage(
            kyc,
            owner,
            request.params.edit_token,
            ctx.provider.hostsOnboarding(kyc.accountType as "custom" | "express" | "standard"),
            brand,
          ),
        );
    },
  );

  app.post(
    "/kyc/:edit_token/details",
    {
      config: formPost(SAVED),
      logLevel: QUIET,
      schema: {
        operationId: "submitKycDetails",
        tags,
        summary: "Widget form: the seller's details",
        params: Token,
        body: DetailsForm,
      },
    },
    async (request, reply) => {
      await widget.submitDetails(deps, ctx, request.params.edit_token, request.body, request.ip);
      return done(reply, request.params.edit_token);
    },
  );

  app.post(
    "/kyc/:edit_token/bank-account",
    {
      config: formPost(SAVED),
      logLevel: QUIET,
      schema: {
        operationId: "submitKycBankAccount",
        tags,
        summary: "Widget form: the payout bank account",
        params: Token,
        body: BankForm,
      },
    },
    async (request, reply) => {
      await widget.addBankAccount(deps, ctx, request.params.edit_token, request.body);
      return done(reply, request.params.edit_token);
    },
  );

  widgetUploadRoutes(app, deps, ctx);
}

/** The onboarding at the provider and the documents the shopper uploads. */
function widgetUploadRoutes(app: Server, deps: Deps, ctx: KycContext) {
  app.post(
    "/kyc/:edit_token/onboarding",
    {
      config: formPost("On to the provider's hosted onboarding, which returns the seller to the widget page"),
      logLevel: QUIET,
      schema: {
        operationId: "startKycOnboarding",
        tags,
        summary: "Widget: continue on the provider's hosted onboarding",
        params: Token,
      },
    },
    async (request, reply) =>
      reply.redirect(await widget.hostedOnboarding(deps, ctx, request.params.edit_token), 303),
  );

  app.post(
    "/kyc/:edit_token/documents",
    {
      config: formPost(SAVED),
      logLevel: QUIET,
      schema: {
        operationId: "uploadKycDocument",
        tags,
        summary: "Widget form: an identity document (multipart, 1 MiB)",
        params: Token,
      },
    },
    async (request, reply) => {
      // The token is checked before the upload is read, so strangers cannot make us buffer files.
      await widget.recordByToken(deps, request.params.edit_token);
      const file = await request.file();
      if (!file) throw new AppError("validation_failed", "Choose a file to upload");
      const content = await file.toBuffer();
      await widget.uploadDocument(deps, ctx, request.params.edit_token, {
        filename: file.filename.slice(0, 200) || "document",
        content_type: file.mimetype,
        content,
      });
      return done(reply, request.params.edit_token);
    },
  );
}
