import { timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { Type } from "typebox";
import { AppError, notFound } from "./errors.ts";
import type { HttpMetrics } from "./metrics.ts";
import type { Server } from "./server.ts";

export type HealthState = "ok" | "starting" | "draining" | "database_unreachable";

export interface HealthChecks {
  /**
   * `ok` once migrations are applied and the job queue runs, until a shutdown begins; with
   * `probeDatabase`, also only while the database answers.
   */
  state(probeDatabase: boolean): Promise<HealthState>;
}

const Healthy = Type.Object(
  { status: Type.Literal("ok", { description: "The process serves requests" }) },
  { examples: [{ status: "ok" }] },
);
const NotReady = Type.Object(
  {
    status: Type.Union(
      [Type.Literal("starting"), Type.Literal("draining"), Type.Literal("database_unreachable")],
      { description: "Why the process does not take requests now: starting, shutting down, or no database" },
    ),
  },
  { examples: [{ status: "draining" }] },
);

/**
 * Metrics are for the operator's scraper: with METRICS_TOKEN they answer to that bearer token,
 * without it they are not served at all. (Answering loopback only would not do: behind a reverse
 * proxy on the same host every request comes from loopback.)
 */
function checkMetricsToken(request: FastifyRequest, token: string | undefined) {
  if (!token) throw notFound("Route");
  const header = request.headers.authorization ?? "";
  const given = Buffer.from(header.startsWith("Bearer ") ? header.slice(7).trim() : "");
  const expected = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new AppError("unauthenticated", "Send the metrics token as `Authorization: Bearer <token>`", {
      headers: { "www-authenticate": 'Bearer realm="metrics"' },
    });
  }
}

export async function systemRoutes(
  app: Server,
  metrics: HttpMetrics,
  checks: HealthChecks,
  metricsToken: string | undefined,
) {
  app.get(
    "/health",
    {
      config: { public: true },
      schema: {
        operationId: "getHealth",
        tags: ["system"],
        summary: "200 once the database is migrated and the job queue runs; 503 while starting or draining",
        response: { 200: Healthy, 503: NotReady },
      },
    },
    async (_request, reply) => {
      const status = await checks.state(false);
      return status === "ok" ? { status } : reply.code(503).send({ status });
    },
  );

  app.get(
    "/health/live",
    {
      config: { public: true },
      schema: {
        operationId: "getLiveness",
        tags: ["system"],
        summary: "Liveness: 200 while the process runs and answers (restart it when this fails)",
        response: { 200: Healthy },
      },
    },
    async () => ({ status: "ok" as const }),
  );

  app.get(
    "/health/ready",
    {
      config: { public: true },
      schema: {
        operationId: "getReadiness",
        tags: ["system"],
        summary:
          "Readiness: 200 when migrated, the database answers and no shutdown has begun (send traffic only then)",
        response: { 200: Healthy, 503: NotReady },
      },
    },
    async (_request, reply) => {
      const status = await checks.state(true);
      return status === "ok" ? { status } : reply.code(503).send({ status });
    },
  );

  app.get("/openapi.json", { config: { public: true }, schema: { hide: true } }, async () => app.swagger());

  app.get("/metrics", { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    checkMetricsToken(request, metricsToken);
    return reply.type("text/plain; version=0.0.4").send(metrics.render());
  });
}
