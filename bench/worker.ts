// The job worker alone (no HTTP), as a scaled-out deployment runs it beside API-only processes
// (`RUN_WORKER=false`): `npm run bench` starts it next to bench/server.ts on PostgreSQL when
// BENCH_WORKER=separate.
import { buildApplication } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { createLogger } from "../src/platform/log.ts";

const config = loadConfig({ ...process.env, PORT: "0", LOG_LEVEL: "warn", RUN_WORKER: "true" });
// As src/main.ts builds a worker-only process: no route answers here, so none is compiled.
const application = await buildApplication({ config, logger: createLogger("warn"), compileOnFirstUse: true });
await application.start();
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);

process.once("SIGTERM", async () => {
  await application.close();
  process.exit(0);
});
