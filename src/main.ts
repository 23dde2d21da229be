import { buildApplication } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { createLogger } from "./platform/log.ts";

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
  const application = await buildApplication({ config, logger });
  await application.start();
  await application.app.listen({ port: config.port, host: config.host });
  logger.info(
    {
      engine: application.deps.database.engine,
      sandbox: config.sandbox,
      docs: `${config.publicUrl}/docs`,
    },
    `listening; API docs at ${config.publicUrl}/docs`,
  );
  const shutdown = async (signal: string) => {
    logger.info({ signal }, "shutting down");
    await application.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
}

await main();
