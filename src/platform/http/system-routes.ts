import { Type } from "typebox";
import type { HttpMetrics } from "./metrics.ts";
import type { Server } from "./server.ts";

export interface SystemChecks {
  /** True once migrations are applied and the job worker runs. */
  ready(): boolean;
}

export async function systemRoutes(app: Server, metrics: HttpMetrics, checks: SystemChecks) {
  app.get(
    "/health",
    {
      config: { public: true },
      schema: {
        tags: ["system"],
        summary: "200 once the database is migrated and the job worker runs",
        response: {
          200: Type.Object({ status: Type.Literal("ok") }),
          503: Type.Object({ status: Type.Literal("starting") }),
        },
      },
    },
    async (_request, reply) =>
      checks.ready() ? { status: "ok" as const } : reply.code(503).send({ status: "starting" as const }),
  );

  app.get("/openapi.json", { config: { public: true }, schema: { hide: true } }, async () => app.swagger());

  app.get("/metrics", { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
    reply.type("text/plain; version=0.0.4").send(metrics.render()),
  );
}
