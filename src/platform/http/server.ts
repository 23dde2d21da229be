import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, { type FastifyInstance } from "fastify";
import type { Logger } from "pino";
import { readCredential } from "../auth/credentials.ts";
import type { Authenticator, Principal } from "../auth/principal.ts";
import { newId } from "../ids.ts";
import { traceRequests } from "../tracing.ts";
import { ApiActivity } from "./activity.ts";
import { handleClientError, handleError, handleFrameworkError, sendProblem } from "./error-answers.ts";
import { AppError } from "./errors.ts";
import { INPUT_LIMITS, inputProblems, parseJsonBytes } from "./input-limits.ts";
import { allowedMethods } from "./methods.ts";
import { HttpMetrics } from "./metrics.ts";
import { type DocumentOptions, registerOpenApi } from "./openapi.ts";
import { Problem } from "./schemas.ts";
import { buildSerializerOnFirstUse } from "./serializers.ts";
import { validatorCompiler, validatorCompilerOnFirstUse } from "./validation.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The authenticated caller; set before the handler of every route not marked `public`. */
    actor: Principal;
  }
  interface FastifyContextConfig {
    /** Route needs no credential (sign-up, log-in, health, hosted pages). */
    public?: boolean;
    /** A hosted page whose errors are HTML pages for a browser, documented as `text/html`. */
    htmlErrors?: boolean;
  }
}

export type Server = FastifyInstance<
  import("node:http").Server,
  import("node:http").IncomingMessage,
  import("node:http").ServerResponse,
  Logger,
  TypeBoxTypeProvider
>;

const BODY_LIMIT = INPUT_LIMITS.bodyBytes;
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface ServerOptions extends DocumentOptions {
  logger: Logger;
  authenticate: Authenticator;
  /** Fastify's `trustProxy`: which proxies' `X-Forwarded-For` gives `request.ip` (TRUST_PROXY). */
  trustProxy?: boolean | number | string;
  /** A span per request (OpenTelemetry), when tracing is on. */
  traced?: boolean;
  /** A body not received within this long is answered 408 (REQUEST_BODY_TIMEOUT_SECONDS; default 10). */
  bodyTimeoutSeconds?: number;
  /**
   * Tests: response serializers compiled on a route's first answer (serializers.ts), request
   * validators on its first request (validation.ts), instead of all at start.
   */
  compileOnFirstUse?: boolean;
}

/**
 * A body that stops arriving (shorter than its Content-Length, or a chunked one never finished) is
 * answered 408 `request_timeout` once the time is up, and its connection closed: the body reader
 * is handed the error, as it is for a connection that fails.
 */
function limitBodyTime(app: FastifyInstance, ms: number) {
  app.addHook("onRequest", (request, reply, done) => {
    const raw = request.raw;
    const hasBody =
      Number(raw.headers["content-length"] ?? 0) > 0 || raw.headers["transfer-encoding"] !== undefined;
    if (hasBody && !raw.readableEnded) {
      const expire = () => {
        if (raw.readableEnded || reply.sent) return;
        // Not read yet (still authenticating): look again shortly rather than fail a reader not there.
        if (raw.listenerCount("error") === 0) return void setTimeout(expire, 500).unref();
        reply.header("connection", "close");
        raw.emit("error", new AppError("request_timeout", `The body was not received within ${ms / 1000} s`));
      };
      const timer = setTimeout(expire, ms);
      timer.unref();
      raw.once("end", () => clearTimeout(timer));
      reply.raw.once("close", () => clearTimeout(timer));
    }
    done();
  });
}

export interface RegisteredRoute {
  method: string;
  url: string;
  hidden: boolean;
  /** Needs no session or API key (its own credential, if any, is checked by the route). */
  public: boolean;
}

export async function createServer(
  options: ServerOptions,
): Promise<{ app: Server; metrics: HttpMetrics; activity: ApiActivity; routes: RegisteredRoute[] }> {
  const metrics = new HttpMetrics();
  const activity = new ApiActivity();
  const routes: RegisteredRoute[] = [];
  const allowed = allowedMethods(routes);
  const app = Fastify({
    loggerInstance: options.logger,
    bodyLimit: BODY_LIMIT,
    // A hop count trusts that many proxies in front of us, as Express's `trust proxy` does.
    // While a shutdown drains, requests that still arrive on open connections are answered, not
    // refused with 503 (see `drainHttp`).
    return503OnClosing: false,
    trustProxy:
      typeof options.trustProxy === "number"
        ? (_address: string, hop: number) => hop < (options.trustProxy as number)
        : (options.trustProxy ?? false),
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers["x-request-id"];
      return typeof given === "string" && CLIENT_REQUEST_ID.test(given) ? given : newId("req");
    },
    ajv: { customOptions: { removeAdditional: false } },
    ...(options.compileOnFirstUse
      ? { schemaController: { compilersFactory: { buildSerializer: buildSerializerOnFirstUse } } }
      : {}),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: INPUT_LIMITS.paramLength },
    frameworkErrors: handleFrameworkError,
    clientErrorHandler(error, socket) {
      handleClientError.call(this as unknown as FastifyInstance, error, socket, allowed);
    },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as Server;

  // First of all hooks: everything a request does, its authentication included, runs in its span.
  if (options.traced) traceRequests(app as unknown as FastifyInstance);
  limitBodyTime(app as unknown as FastifyInstance, (options.bodyTimeoutSeconds ?? 10) * 1000);
  app.setValidatorCompiler(options.compileOnFirstUse ? validatorCompilerOnFirstUse : validatorCompiler);
  app.addSchema(Problem);
  // JSON is the one body the API reads; text sent as text/plain is 415, not a string to validate.
  // Matched by pattern, so a scope that needs the raw bytes (signed provider webhooks) can still
  // register its own `application/json` parser, which Fastify then prefers.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(/^application\/json\s*(;|$)/i, { parseAs: "buffer" }, (_request, body, done) => {
    try {
      done(null, parseJsonBytes(body as Buffer));
    } catch (error) {
      done(error as AppError, undefined);
    }
  });

  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) {
      if (method === "HEAD") continue;
      routes.push({
        method,
        url: route.url,
        hidden: Boolean(route.schema?.hide),
        public: Boolean(route.config?.public),
      });
    }
  });
  await registerOpenApi(app, options);

  // Hooks every request runs are callback-style where they need not wait: an async hook costs a
  // promise and a microtask turn per request, and eight of them were a measurable share of a read
  // by id (docs/benchmarks.md, "Sealing, ids and hooks").
  app.addHook("onRequest", (request, reply, done) => {
    reply.raw.once("close", activity.begin());
    reply.header("x-request-id", request.id);
    // The documentation pages and their assets: never framed, never sniffed, no referrer.
    if (request.url === "/docs" || request.url.startsWith("/docs/")) {
      reply.header("x-frame-options", "DENY");
      reply.header("x-content-type-options", "nosniff");
      reply.header("referrer-policy", "no-referrer");
    }
    done();
  });

  app.addHook("onRequest", async (request) => {
    if (request.is404 || request.routeOptions.config.public || request.routeOptions.schema?.hide) return;
    const reading = readCredential(request.headers.authorization);
    if (reading && "refused" in reading) throw new AppError("unauthenticated", reading.refused);
    const actor = reading ? await options.authenticate(reading.credential) : undefined;
    if (!actor) {
      throw new AppError(
        "unauthenticated",
        reading
          ? "The credential is invalid, expired or revoked"
          : "Send a credential in the authorization header",
      );
    }
    // A copy per request: the cached principal is shared by every request of the credential.
    request.actor = { ...actor, ip: request.ip };
  });

  // What no schema can say: no U+0000 or lone surrogate in any string, no `__proto__` key, no
  // number rounded by JSON (docs/reliability.md). Before validation, so every such field is named.
  app.addHook("preValidation", (request, _reply, done) => {
    const errors = [
      ...inputProblems(request.params, "/path"),
      ...inputProblems(request.query, "/query"),
      ...inputProblems(request.body, "/body"),
    ];
    if (errors.length === 0) return done();
    const detail = errors.map((e) => `${e.path} ${e.message}`).join("; ");
    done(new AppError("validation_failed", detail, { errors }));
  });

  app.addHook("onResponse", (request, reply, done) => {
    const route = request.routeOptions.url ?? "unmatched";
    metrics.observe(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => {
    const methods = allowed(request.url);
    if (methods.length > 0) {
      return sendProblem(
        request,
        reply.header("allow", methods.join(", ")),
        "method_not_allowed",
        `${request.method} is not allowed here; allowed: ${methods.join(", ")}`,
      );
    }
    return sendProblem(
      request,
      reply,
      "not_found",
      `No route ${request.method} ${request.url.split("?")[0]}`,
    );
  });
  return { app, metrics, activity, routes };
}
