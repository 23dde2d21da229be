import { createServer, type Server } from "node:http";
import type { HealthChecks } from "./system-routes.ts";

/**
 * A worker-only process's health checks on a port of their own (`HEALTH_PORT`): the same three
 * answers as the API's `/health`, `/health/live` and `/health/ready`, and nothing else, so the
 * process exposes no API.
 */
export async function startHealthServer(port: number, host: string, checks: HealthChecks): Promise<Server> {
  const server = createServer((request, response) => {
    const answer = async () => {
      const path = (request.url ?? "").split("?")[0];
      if (request.method !== "GET" || !["/health", "/health/live", "/health/ready"].includes(path)) {
        return { status: 404, body: { status: "not_found" } };
      }
      const state = path === "/health/live" ? "ok" : await checks.state(path === "/health/ready");
      return { status: state === "ok" ? 200 : 503, body: { status: state } };
    };
    answer().then(({ status, body }) => {
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return server;
}
