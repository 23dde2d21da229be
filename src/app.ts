import { readFileSync } from "node:fs";
import type { SpanExporter } from "@opentelemetry/sdk-trace";
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Config } from "./config.ts";
import { dashboardRoutes } from "./dashboard-serving.ts";
import type { Deps } from "./deps.ts";
import { apiKeyRoutes } from "./modules/api-keys/routes.ts";
import { authenticateKey } from "./modules/api-keys/service.ts";
import { appRoutes } from "./modules/apps/routes.ts";
import { auctionJobs, onDeferredPayment } from "./modules/auctions/jobs.ts";
import { auctionOfPrice } from "./modules/auctions/referrers.ts";
import { auctionRoutes } from "./modules/auctions/routes.ts";
import { auditRoutes } from "./modules/audit/routes.ts";
import { createKycContext } from "./modules/kyc/context.ts";
import { kycActionJob } from "./modules/kyc/jobs.ts";
import { kycRoutes } from "./modules/kyc/routes.ts";
import { sellerAccountOf } from "./modules/kyc/sellers.ts";
import { kycWebhookRoutes } from "./modules/kyc/webhook-routes.ts";
import { kycWidgetRoutes } from "./modules/kyc/widget-routes.ts";
import { reconcileJob } from "./modules/ledger/reconcile.ts";
import { ledgerRoutes } from "./modules/ledger/routes.ts";
import { invitationRoutes } from "./modules/members/invitation-routes.ts";
import { invitationJob } from "./modules/members/jobs.ts";
import { memberRoutes } from "./modules/members/routes.ts";
import { checkoutRoutes } from "./modules/payments/checkout-routes.ts";
import { deletedAppPaymentRoutes } from "./modules/payments/deleted-app-routes.ts";
import { paymentEventRoutes } from "./modules/payments/event-routes.ts";
import { paymentFacts } from "./modules/payments/facts.ts";
import { paymentJobs } from "./modules/payments/jobs.ts";
import { moneyInFlight, sellerMoneyInFlight } from "./modules/payments/open-money.ts";
import { providerWebhookRoutes } from "./modules/payments/provider-webhooks.ts";
import { priceHasPayments } from "./modules/payments/reads.ts";
import { paymentRoutes } from "./modules/payments/routes.ts";
import { resumeSellerTransfers } from "./modules/payments/transfers.ts";
import { pricesOfTrigger } from "./modules/prices/referrers.ts";
import { priceRoutes } from "./modules/prices/routes.ts";
import { sandboxInboxRoutes } from "./modules/sandbox-inbox/routes.ts";
import { pruneSandboxMailJob } from "./modules/sandbox-inbox/service.ts";
import { sandboxMailStore } from "./modules/sandbox-inbox/store.ts";
import { solanaJobs } from "./modules/solana/jobs.ts";
import { solanaRoutes } from "./modules/solana/routes.ts";
import { triggersOfWallet } from "./modules/triggers/referrers.ts";
import { triggerRoutes } from "./modules/triggers/routes.ts";
import { accountRoutes } from "./modules/users/account-routes.ts";
import { accountMailJob } from "./modules/users/jobs.ts";
import { userRoutes } from "./modules/users/routes.ts";
import { authenticateSession } from "./modules/users/service.ts";
import { twoFactorRoutes } from "./modules/users/two-factor-routes.ts";
import { checkBalanceJob } from "./modules/wallets/balance.ts";
import { sandboxWalletRoutes, walletRoutes } from "./modules/wallets/routes.ts";
import { webhookEditRoutes } from "./modules/webhooks/edit-routes.ts";
import { eventRoutes } from "./modules/webhooks/event-routes.ts";
import { webhookDeliveryJob } from "./modules/webhooks/jobs.ts";
import { pruneEventsJob } from "./modules/webhooks/retention.ts";
import { webhookRoutes } from "./modules/webhooks/routes.ts";
import { webhookTestRoutes } from "./modules/webhooks/test-routes.ts";
import { CredentialCache } from "./platform/auth/cache.ts";
import type { Authenticator } from "./platform/auth/principal.ts";
import { startRevocations } from "./platform/auth/revocations.ts";
import { hashToken } from "./platform/auth/secrets.ts";
import { reportEvmChainIds } from "./platform/chains/evm-startup.ts";
import { createChainRegistry } from "./platform/chains/index.ts";
import type { ChainRegistry } from "./platform/chains/registry.ts";
import type { Custody } from "./platform/crypto/custody.ts";
import { createCustody } from "./platform/crypto/custody.ts";
import { checkMasterKeys, MASTER_KEYS_CHANNEL, refreshSealingKey } from "./platform/crypto/key-registry.ts";
import { type DatabaseHandle, migrateDatabase, openDatabase } from "./platform/db/index.ts";
import { registerDrain } from "./platform/http/drain.ts";
import { purgeIdempotencyKeysJob, registerIdempotency } from "./platform/http/idempotency.ts";
import { purgeRateLimitCountersJob, RateLimiter } from "./platform/http/rate-limit.ts";
import { createServer, type RegisteredRoute, type Server } from "./platform/http/server.ts";
import { type HealthChecks, systemRoutes } from "./platform/http/system-routes.ts";
import { createFaults } from "./platform/jobs/faults.ts";
import { createJobs } from "./platform/jobs/index.ts";
import { createMailer, type Mailer } from "./platform/mail/index.ts";
import { type RatesProvider, StaticRates } from "./platform/money/rates.ts";
import { createKycProvider } from "./platform/providers/kyc/registry.ts";
import { createPaymentProviders } from "./platform/providers/payments/registry.ts";
import { sandboxChallengeRoutes } from "./platform/providers/payments/sandbox/routes.ts";
import { startTracing, traced } from "./platform/tracing.ts";

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
  rates?: RatesProvider;
  chains?: ChainRegistry;
  /** Tests: spans go to this exporter (production: OTEL_EXPORTER_OTLP_ENDPOINT). */
  spanExporter?: SpanExporter;
  /**
   * Each response serializer and request validator is compiled when first used (createServer):
   * tests, and worker-only processes, which serve no request.
   */
  compileOnFirstUse?: boolean;
}

export interface Application {
  app: Server;
  deps: Deps;
  /** Every route registered, for the OpenAPI completeness test. */
  routes: RegisteredRoute[];
  /** Migrates, starts the job queue (and the worker when configured) and readies the routes. */
  start(): Promise<void>;
  /** What /health and /health/ready answer (also served by a worker-only process's health port). */
  health: HealthChecks;
  /**
   * A graceful stop: /health turns 503, every request in flight finishes, the server stops
   * listening, running jobs finish or are handed back to another worker, and the database closes,
   * all within `SHUTDOWN_TIMEOUT_SECONDS`.
   */
  shutdown(): Promise<void>;
  close(): Promise<void>;
}

/** True if the database answers a trivial query within two seconds. */
async function databaseAnswers(database: DatabaseHandle): Promise<boolean> {
  const timeout = new Promise<boolean>((resolve) => setTimeout(resolve, 2000, false).unref());
  const probe = database.db.execute(sql`select 1`).then(
    () => true,
    () => false,
  );
  return Promise.race([probe, timeout]);
}

/** Builds the whole service with production defaults for every dependency not passed in. */
export async function buildApplication(options: BuildOptions): Promise<Application> {
  const { config, logger } = options;
  const tracing = await startTracing({
    serviceName: "payments-backend",
    otlpEndpoint: config.otelEndpoint,
    exporter: options.spanExporter,
  });
  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      directUrl: config.databaseDirectUrl,
      replicaUrl: config.databaseReplicaUrl,
      poolSize: config.databasePoolSize,
      poolWaitMs: config.databasePoolWaitMs,
      dataDir: config.dataDir,
      sharedBuffersMb: config.pgliteSharedBuffersMb,
      onIdleError: (error) => logger.warn({ err: error }, "idle database connection lost"),
    }));
  const now = options.now ?? (() => new Date());
  const jobs = createJobs(database, logger, {
    timeoutSeconds: config.jobTimeoutSeconds,
    pollSeconds: config.jobPollSeconds,
    now,
  });
  const credentialCache = new CredentialCache({
    ttlMs: config.authCacheSeconds * 1000,
    now: () => now().getTime(),
  });
  const custody = options.custody ?? createCustody(config);
  // A rotation names a new sealing key: every process seals with it from the NOTIFY on (once
  // start-up has checked the keys: before, the table may not even exist yet).
  let keysChecked = false;
  const revocations = await startRevocations(database, credentialCache, logger, {
    [MASTER_KEYS_CHANNEL]: () => {
      if (!keysChecked) return;
      refreshSealingKey(database.db, custody, logger).catch((error) =>
        logger.warn({ err: error }, "could not read the sealing master key"),
      );
    },
  });
  const deps: Deps = {
    config,
    logger,
    database,
    db: database.db,
    lagging: database.lagging ?? database.db,
    jobs,
    // In sandbox mode every mail is also kept for the sandbox inbox (`/sandbox/mail`).
    mailer:
      options.mailer ??
      createMailer(config.mail, logger, config.sandbox ? sandboxMailStore(database.db, custody) : undefined),
    custody,
    revocations,
    now,
    paymentProviders: await createPaymentProviders(config, database, now, {}, tracing ? traced : undefined),
    kycProvider: await createKycProvider(config, database.db),
    chains: options.chains ?? (await createChainRegistry(config.chains, now, tracing ? traced : undefined)),
    rates: options.rates ?? new StaticRates(config.money.rates),
    rateLimiter: new RateLimiter(database.db, now, config.rateLimits),
    // Hooks across modules, given at construction: a module calls them without importing their owners.
    onDeferredPayment: (tx, payment) => onDeferredPayment({ jobs }, tx, payment),
    sellerAccounts: (kycId) => sellerAccountOf(database.db, kycId),
    moneyInFlight,
    sellerMoneyInFlight,
    paymentFacts,
    onSellerPayable: (tx, kycId) => resumeSellerTransfers({ jobs }, tx, kycId),
    referrers: { triggersOfWallet, pricesOfTrigger, auctionOfPrice, priceHasPayments },
    faults: createFaults(config.faults),
  };

  jobs.register([
    invitationJob(deps),
    accountMailJob(deps),
    purgeIdempotencyKeysJob(deps.db, now),
    purgeRateLimitCountersJob(deps.db, now),
  ]);
  if (config.sandbox) jobs.register([pruneSandboxMailJob(deps)]);
  jobs.register([webhookDeliveryJob(deps), pruneEventsJob(deps), checkBalanceJob(deps)]);
  jobs.register(paymentJobs(deps));
  jobs.register([reconcileJob(deps)]);
  jobs.register(auctionJobs(deps));
  jobs.register(solanaJobs(deps));
  const kyc = createKycContext(deps);
  jobs.register([kycActionJob(deps, kyc)]);

  const authenticate: Authenticator = (credential) => {
    const hash = hashToken(credential);
    return credentialCache.resolve(hash, () =>
      credential.startsWith("sk_") ? authenticateKey(deps, hash) : authenticateSession(deps, hash),
    );
  };

  let ready = false;
  let stopped = false;
  const { app, metrics, activity, routes } = await createServer({
    logger,
    authenticate,
    publicUrl: config.publicUrl,
    version: pkg.version,
    rateLimits: config.rateLimits,
    listCountCap: config.listCountCap,
    trustProxy: config.trustProxy,
    traced: tracing !== undefined,
    bodyTimeoutSeconds: config.requestBodyTimeoutSeconds,
    compileOnFirstUse: options.compileOnFirstUse,
  });
  registerIdempotency(app, deps.db, now, deps.faults, custody);
  const http = registerDrain(app, activity);
  const health: HealthChecks = {
    async state(probeDatabase) {
      if (http.draining) return "draining";
      if (!ready) return "starting";
      if (probeDatabase && !(await databaseAnswers(database))) return "database_unreachable";
      return "ok";
    },
  };
  await app.register(async (scope) => {
    const server = scope as unknown as Server;
    await systemRoutes(server, metrics, health, config.metricsToken);
    await userRoutes(server, deps);
    await accountRoutes(server, deps);
    await twoFactorRoutes(server, deps);
    await appRoutes(server, deps);
    await auditRoutes(server, deps);
    await memberRoutes(server, deps);
    await invitationRoutes(server, deps);
    await apiKeyRoutes(server, deps);
    await walletRoutes(server, deps);
    if (config.chains.mode === "sandbox") await sandboxWalletRoutes(server, deps);
    await triggerRoutes(server, deps);
    await webhookRoutes(server, deps);
    await webhookEditRoutes(server, deps);
    await webhookTestRoutes(server, deps);
    await eventRoutes(server, deps, authenticate);
    if (config.sandbox) await sandboxChallengeRoutes(server, deps.paymentProviders.sandbox);
    if (config.sandbox) await sandboxInboxRoutes(server, deps);
    await priceRoutes(server, deps);
    await paymentRoutes(server, deps);
    await paymentEventRoutes(server, deps);
    await deletedAppPaymentRoutes(server, deps);
    await ledgerRoutes(server, deps);
    await providerWebhookRoutes(server, deps);
    await checkoutRoutes(server, deps);
    await auctionRoutes(server, deps);
    await kycRoutes(server, deps, kyc);
    await kycWidgetRoutes(server, deps, kyc);
    await kycWebhookRoutes(server, deps, kyc);
    await solanaRoutes(server, deps);
    await dashboardRoutes(scope, { sandbox: config.sandbox, serviceName: config.serviceName, logger });
  });

  return {
    app,
    deps,
    routes,
    async start() {
      await migrateDatabase(database);
      // Before anything is served: a process whose keys cannot open what the database holds stops here.
      await checkMasterKeys(database.db, custody);
      keysChecked = true;
      // The worker of a process that serves the API gives way to its requests (Jobs.start).
      await jobs.start({ work: config.runWorker, yieldTo: activity });
      await app.ready();
      ready = true;
      // Reported in the background: a slow node must not hold up start-up.
      void reportEvmChainIds(deps.chains, logger).catch(() => {});
    },
    health,
    async shutdown() {
      if (stopped) return;
      stopped = true;
      const deadline = Date.now() + config.shutdownTimeoutSeconds * 1000;
      await http.drain(deadline);
      ready = false;
      await jobs.stop(Math.max(1000, deadline - Date.now()));
      await revocations.stop();
      await database.close();
      await tracing?.shutdown();
    },
    async close() {
      if (stopped) return;
      stopped = true;
      ready = false;
      await app.close();
      await jobs.stop();
      await revocations.stop();
      await database.close();
      await tracing?.shutdown();
    },
  };
}
