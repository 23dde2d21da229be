import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from "fastify";
import type { Logger } from "pino";
import { readCredential } from "../auth/credentials.ts";
import type { Authenticator, Principal } from "../auth/principal.ts";
import { newId } from "../ids.ts";
import { ApiActivity } from "./activity.ts";
import { AppError, ERROR_STATUS, type ErrorCode, titleOf } from "./errors.ts";
import { HttpMetrics } from "./metrics.ts";
import { Problem } from "./schemas.ts";
import { fieldErrors, validatorCompiler } from "./validation.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The authenticated caller; set before the handler of every route not marked `public`. */
    actor: Principal;
  }
  interface FastifyContextConfig {
    /** Route needs no credential (sign-up, log-in, health, hosted pages). */
    public?: boolean;
  }
}

export type Server = FastifyInstance<
  import("node:http").Server,
  import("node:http").IncomingMessage,
  import("node:http").ServerResponse,
  Logger,
  TypeBoxTypeProvider
>;

export const BODY_LIMIT = 1024 * 1024;
const WWW_AUTHENTICATE = 'Bearer realm="api", Basic realm="api", charset="UTF-8"';
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface ServerOptions {
  logger: Logger;
  authenticate: Authenticator;
  publicUrl: string;
  version: string;
}

function problem(request: FastifyRequest, code: ErrorCode, detail: string, errors?: unknown[]) {
  return {
    type: `urn:problem:${code}`,
    title: titleOf(code),
    status: ERROR_STATUS[code],
    detail,
    code,
    ...(errors ? { errors } : {}),
    request_id: request.id,
  };
}

function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ErrorCode,
  detail: string,
  errors?: unknown[],
) {
  return reply
    .code(ERROR_STATUS[code])
    .type("application/problem+json")
    .send(problem(request, code, detail, errors));
}

/** Maps every error to an RFC 9457 answer; the only place errors become HTTP. */
function handleError(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    if (error.headers) reply.headers(error.headers);
    if (error.code === "unauthenticated") reply.header("www-authenticate", WWW_AUTHENTICATE);
    return sendProblem(request, reply, error.code, error.message, error.errors);
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const errors = fieldErrors(
      fastifyError.validation as Parameters<typeof fieldErrors>[0],
      fastifyError.validationContext ?? "body",
    );
    const detail = errors.map((e) => `${e.path} ${e.message}`).join("; ");
    return sendProblem(request, reply, "validation_failed", detail, errors);
  }
  const status = fastifyError.statusCode ?? 500;
  if (status === 413) {
    return sendProblem(request, reply, "payload_too_large", `The body is larger than ${BODY_LIMIT} bytes`);
  }
  if (status === 415) {
    return sendProblem(request, reply, "unsupported_media_type", "Send the body as application/json");
  }
  if (status === 400) {
    // Fastify's own 400s: malformed JSON, empty JSON body.
    const detail =
      fastifyError.code === "FST_ERR_CTP_EMPTY_JSON_BODY"
        ? "The body is empty but the content type is application/json"
        : "The body is not valid JSON";
    return sendProblem(request, reply, "validation_failed", detail, [{ path: "/body", message: detail }]);
  }
  if (status === 404) return sendProblem(request, reply, "not_found", "No such route");
  request.log.error({ err: error }, "unhandled error");
  // A 5xx never carries internals: the request id is what support needs.
  return sendProblem(request, reply, "internal", "Something went wrong on our side");
}

export interface RegisteredRoute {
  method: string;
  url: string;
  hidden: boolean;
}

export async function createServer(
  options: ServerOptions,
): Promise<{ app: Server; metrics: HttpMetrics; activity: ApiActivity; routes: RegisteredRoute[] }> {
  const metrics = new HttpMetrics();
  const activity = new ApiActivity();
  const routes: RegisteredRoute[] = [];
  const app = Fastify({
    loggerInstance: options.logger,
    bodyLimit: BODY_LIMIT,
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers["x-request-id"];
      return typeof given === "string" && CLIENT_REQUEST_ID.test(given) ? given : newId("req");
    },
    ajv: { customOptions: { removeAdditional: false } },
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as Server;

  app.setValidatorCompiler(validatorCompiler);
  app.addSchema(Problem);

  // Every route documents its error answers in the OpenAPI document.
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) {
      if (method !== "HEAD") routes.push({ method, url: route.url, hidden: Boolean(route.schema?.hide) });
    }
    if (route.schema?.hide) return;
    route.schema = route.schema ?? {};
    const response = (route.schema.response ?? {}) as Record<string, unknown>;
    const ref = { $ref: "Problem#" };
    response["4XX"] ??= {
      description: "Client error (RFC 9457 problem)",
      content: { "application/problem+json": { schema: ref } },
    };
    response["5XX"] ??= {
      description: "Server error (RFC 9457 problem)",
      content: { "application/problem+json": { schema: ref } },
    };
    route.schema.response = response;
  });

  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Payments, wallets and seller-KYC API",
        version: options.version,
        description:
          "Fiat payments that run smart-contract calls. Errors are RFC 9457 problem documents. " +
          "Authenticate with `Authorization: Bearer <token or API key>` or HTTP Basic with the API key as user name.",
      },
      servers: [{ url: options.publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer" },
          basic: { type: "http", scheme: "basic" },
        },
      },
      security: [{ bearer: [] }, { basic: [] }],
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (json.$id as string) ?? `def-${i}` },
  });
  await app.register(swaggerUi, { routePrefix: "/docs", uiConfig: { deepLinking: true } });

  app.addHook("onRequest", async (request, reply) => {
    activity.touch();
    reply.header("x-request-id", request.id);
    if (request.is404 || request.routeOptions.config.public || request.routeOptions.schema?.hide) return;
    const credential = readCredential(request.headers.authorization);
    const actor = credential ? await options.authenticate(credential) : undefined;
    if (!actor) {
      throw new AppError(
        "unauthenticated",
        credential
          ? "The credential is invalid, expired or revoked"
          : "Send a credential in the authorization header",
      );
    }
    request.actor = actor;
  });

  app.addHook("onResponse", async (request, reply) => {
    activity.touch();
    const route = request.routeOptions.url ?? "unmatched";
    metrics.observe(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });

  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) =>
    sendProblem(request, reply, "not_found", `No route ${request.method} ${request.url.split("?")[0]}`),
  );
  return { app, metrics, activity, routes };
}
