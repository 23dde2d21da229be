import { flushCompileCache } from "node:module";
import { buildApplication } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { startHealthServer } from "./platform/http/health-server.ts";
import { createLogger } from "./platform/log.ts";
import { startMemoryTrim } from "./platform/memory.ts";

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  // A worker-only process never answers a request: its routes' serializers and validators would
  // be compiled at start for nothing (docs/benchmarks.md, "A worker's start").
  const application = await buildApplication({ config, logger, compileOnFirstUse: !config.runApi });
  try {
    await application.start();
  } catch (error) {
    // A setting found wrong only against the database (master keys that cannot open what it holds).
    if (error instanceof ConfigError) {
      console.error(error.message);
      await application.close().catch(() => {});
      process.exit(2);
    }
    throw error;
  }
  const role = config.runApi ? (config.runWorker ? "api+worker" : "api") : "worker";
  const engine = application.deps.database.engine;
  let healthServer: Awaited<ReturnType<typeof startHealthServer>> | undefined;
  if (config.runApi) {
    await application.app.listen({ port: config.port, host: config.host });
    logger.info(
      { engine, role, sandbox: config.sandbox, docs: `${config.publicUrl}/docs` },
      `listening; API docs at ${config.publicUrl}/docs`,
    );
  } else {
    if (config.healthPort) {
      healthServer = await startHealthServer(config.healthPort, config.host, application.health);
    }
    logger.info(
      { engine, role, health_port: config.healthPort ?? null },
      "worker running; no API in this process",
    );
  }

  // With NODE_COMPILE_CACHE set (npm start sets it), the next start reads every module compiled
  // and its TypeScript stripped from the cache, and never loads the type stripper (18 MB).
  flushCompileCache();
  // After start-up, which is when most memory is allocated and freed.
  const memoryTrim = await startMemoryTrim(config.memoryTrimSeconds, logger);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, timeout_seconds: config.shutdownTimeoutSeconds }, "draining, then shutting down");
    // A last resort: whatever hangs past the timeout (and a margin for closing), the process ends.
    setTimeout(
      () => {
        logger.error("shutdown did not finish in time; exiting");
        process.exit(1);
      },
      (config.shutdownTimeoutSeconds + 10) * 1000,
    ).unref();
    memoryTrim.stop();
    await application.shutdown();
    healthServer?.close();
    logger.info("shut down");
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
}

await main();
