import { readFileSync } from "node:fs";
import type { Logger } from "pino";
import type { Config } from "./config.ts";
import type { Deps } from "./deps.ts";
import { apiKeyRoutes } from "./modules/api-keys/routes.ts";
import { authenticateKey } from "./modules/api-keys/service.ts";
import { appRoutes } from "./modules/apps/routes.ts";
import { invitationJob } from "./modules/members/jobs.ts";
import { memberRoutes } from "./modules/members/routes.ts";
import { triggerRoutes } from "./modules/triggers/routes.ts";
import { userRoutes } from "./modules/users/routes.ts";
import { authenticateSession } from "./modules/users/service.ts";
import { walletRoutes } from "./modules/wallets/routes.ts";
import type { Authenticator } from "./platform/auth/principal.ts";
import type { Custody } from "./platform/crypto/custody.ts";
import { createCustody } from "./platform/crypto/custody.ts";
import { type DatabaseHandle, migrateDatabase, openDatabase } from "./platform/db/index.ts";
import { createServer, type Server } from "./platform/http/server.ts";
import { systemRoutes } from "./platform/http/system-routes.ts";
import { createJobs } from "./platform/jobs/index.ts";
import { type Mailer, SandboxMailer } from "./platform/mail/index.ts";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

export interface BuildOptions {
  config: Config;
  logger: Logger;
  /** An already open database (tests pass an isolated one); otherwise opened from the config. */
  database?: DatabaseHandle;
  mailer?: Mailer;
  custody?: Custody;
  now?: () => Date;
}

export interface Application {
  app: Server;
  deps: Deps;
  /** Migrates, starts the job queue (and the worker when configured) and readies the routes. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Builds the whole service with production defaults for every dependency not passed in. */
export async function buildApplication(options: BuildOptions): Promise<Application> {
  const { config, logger } = options;
  const database =
    options.database ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  const jobs = createJobs(database, logger);
  const deps: Deps = {
    config,
    logger,
    database,
    db: database.db,
    jobs,
    mailer: options.mailer ?? new SandboxMailer(logger),
    custody: options.custody ?? createCustody(config),
    now: options.now ?? (() => new Date()),
  };

  jobs.register([invitationJob(deps)]);

  const authenticate: Authenticator = (credential) =>
    credential.startsWith("sk_") ? authenticateKey(deps, credential) : authenticateSession(deps, credential);

  let ready = false;
  const { app, metrics } = await createServer({
    logger,
    authenticate,
    publicUrl: config.publicUrl,
    version: pkg.version,
  });
  await app.register(async (scope) => {
    const server = scope as unknown as Server;
    await systemRoutes(server, metrics, { ready: () => ready });
    await userRoutes(server, deps);
    await appRoutes(server, deps);
    await memberRoutes(server, deps);
    await apiKeyRoutes(server, deps);
    await walletRoutes(server, deps);
    await triggerRoutes(server, deps);
  });

  return {
    app,
    deps,
    async start() {
      await migrateDatabase(database);
      await jobs.start({ work: config.runWorker });
      await app.ready();
      ready = true;
    },
    async close() {
      ready = false;
      await app.close();
      await jobs.stop();
      await database.close();
    },
  };
}
