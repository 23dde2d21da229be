import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "pino";

/**
 * The console at /dashboard: the single-page app built by Vite into `dashboard/dist`, served from
 * memory (a handful of files fixed at build time, each kept with its gzip form once asked for), with index.html
 * for every path that is not a file so the app's own router takes over.
 */

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const DASHBOARD_DIST = path.join(ROOT, "dashboard", "dist");

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

interface StaticFile {
  body: Buffer;
  type: string;
  compressible: boolean;
  /** Made on the first request that accepts gzip (not at start-up: most processes never serve it). */
  gzipped?: Buffer;
}

export interface DashboardOptions {
  /** Sandbox mode: the console shows a "Test mode" badge. */
  sandbox: boolean;
  /** The brand the console shows (SERVICE_NAME); default "Console". */
  serviceName?: string;
  logger: Logger;
  /** Where the build is (tests point elsewhere); default `dashboard/dist`. */
  dist?: string;
}

/**
 * Scripts only from this origin; styles from this origin or a `<style>` carrying this response's
 * nonce (Mantine adds its CSS variables that way); calls only to this origin (the API).
 */
function dashboardPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

async function loadBuild(dist: string): Promise<Map<string, StaticFile>> {
  const files = new Map<string, StaticFile>();
  for (const file of await filesUnder(dist)) {
    const body = await readFile(file);
    const type = TYPES[path.extname(file)] ?? "application/octet-stream";
    const compressible = /^(text|application\/json|image\/svg)/.test(type) && body.length > 1024;
    const name = path.relative(dist, file).split(path.sep).join("/");
    files.set(name, { body, type, compressible });
  }
  return files;
}

/**
 * `vite build` into a directory of this process's own, then moved into place in one rename: test
 * processes that start at once never read a half-written build, and the first to finish wins.
 */
async function buildDashboard(dist: string, logger: Logger): Promise<void> {
  const staging = `${dist}.${process.pid}.${randomBytes(4).toString("hex")}`;
  logger.info("dashboard/dist is missing: building the dashboard (once, a few seconds)");
  const vite = path.join(ROOT, "node_modules", "vite", "bin", "vite.js");
  const local = path.join(ROOT, "dashboard", "node_modules", "vite", "bin", "vite.js");
  const script = existsSync(local) ? local : vite;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [script, "build", "--outDir", staging, "--logLevel", "warn"], {
      cwd: path.join(ROOT, "dashboard"),
      stdio: ["ignore", "ignore", "pipe"],
    });
    let errors = "";
    child.stderr.on("data", (chunk: Buffer) => {
      errors += chunk.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`vite build failed (${code}): ${errors.slice(-2000)}`)),
    );
  });
  try {
    await rename(staging, dist);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (!existsSync(path.join(dist, "index.html"))) throw error;
  }
}

function send(request: FastifyRequest, reply: FastifyReply, file: StaticFile) {
  if (!file.compressible) return reply.type(file.type).send(file.body);
  reply.header("vary", "accept-encoding");
  if (!/\bgzip\b/.test(String(request.headers["accept-encoding"] ?? ""))) {
    return reply.type(file.type).send(file.body);
  }
  file.gzipped ??= gzipSync(file.body);
  return reply.header("content-encoding", "gzip").type(file.type).send(file.gzipped);
}

/** Serves the console under /dashboard, building it first if the install did not. */
export async function dashboardRoutes(app: FastifyInstance, options: DashboardOptions): Promise<void> {
  const dist = options.dist ?? DASHBOARD_DIST;
  let files = new Map<string, StaticFile>();
  try {
    if (!existsSync(path.join(dist, "index.html"))) await buildDashboard(dist, options.logger);
    files = await loadBuild(dist);
  } catch (error) {
    options.logger.error({ err: error }, "the dashboard could not be built; /dashboard answers 503");
  }
  const index = files.get("index.html")?.body.toString("utf8");
  const settings = JSON.stringify({
    mode: options.sandbox ? "test" : "live",
    name: options.serviceName ?? "Console",
  });
  const route = { config: { public: true }, schema: { hide: true } } as const;

  const page = (reply: FastifyReply) => {
    if (!index) {
      return reply
        .code(503)
        .type("text/plain; charset=utf-8")
        .send("The dashboard is not built: run `npm run dashboard:build`, then restart.");
    }
    const nonce = randomBytes(16).toString("base64");
    return reply
      .header("content-security-policy", dashboardPolicy(nonce))
      .header("cache-control", "no-store")
      .header("referrer-policy", "same-origin")
      .header("x-content-type-options", "nosniff")
      .header("x-frame-options", "DENY")
      .type("text/html; charset=utf-8")
      .send(index.replace('<meta name="csp-nonce" content=""', `<meta name="csp-nonce" content="${nonce}"`));
  };

  app.get("/dashboard/service.json", route, async (_request, reply) =>
    reply.header("cache-control", "no-store").type("application/json").send(settings),
  );
  app.get("/dashboard", route, async (_request, reply) => page(reply));
  app.get("/dashboard/*", route, async (request, reply) => {
    const name = (request.params as { "*": string })["*"];
    const file = name === "index.html" ? undefined : files.get(name);
    if (file) {
      // Vite names every asset by its content hash: a new build is a new name.
      const immutable = name.startsWith("assets/");
      reply.header("cache-control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
      reply.header("x-content-type-options", "nosniff");
      return send(request, reply, file);
    }
    // A missing asset is a 404, never the page (which a <script> would then try to run).
    if (name.startsWith("assets/")) {
      return reply.code(404).type("text/plain; charset=utf-8").send("Not found");
    }
    return page(reply);
  });
}
