import path from "node:path";
import { type ChainsConfig, loadChainsConfig } from "./config/chains.ts";
import { type DatabaseSettings, loadDatabaseSettings } from "./config/database.ts";
import { loadMailSettings, type MailSettings } from "./config/mail.ts";
import { boolean, ConfigError, decimal, type Env, integer } from "./config/parse.ts";
import { loadPaymentSettings, type PaymentSettings } from "./config/payments.ts";
import { type ProcessSettings, processSettings } from "./config/process.ts";
import { loadSecretSettings, type SecretSettings } from "./config/secrets.ts";
import { loadServingSettings, type ServingSettings } from "./config/serving.ts";
import { DEFAULT_COUNT_CAP } from "./platform/http/pagination.ts";
import { loadMoneySettings, type MoneySettings } from "./platform/money/settings.ts";

/**
 * Every setting the service reads, validated once at start-up. This file is the one index callers
 * import (`loadConfig`, `Config`, `ConfigError`); each area's settings, with their checks, live in
 * src/config/: payments and KYC providers, secrets, serving (proxies, limits, metrics, traces),
 * processes, mail and chains; `parse.ts` holds what they share.
 */
export interface Config
  extends ProcessSettings,
    PaymentSettings,
    SecretSettings,
    ServingSettings,
    DatabaseSettings {
  port: number;
  host: string;
  dataDir: string;
  /** The embedded database's buffer cache in MB (PGLITE_SHARED_BUFFERS_MB); unused on PostgreSQL. */
  pgliteSharedBuffersMb: number;
  /** PostgreSQL connection string; when absent the embedded PGlite database in `dataDir` is used. */
  databaseUrl: string | undefined;
  /** Test mode: sandbox providers and chains, `sk_test_` keys. */
  sandbox: boolean;
  logLevel: string;
  /** Public base URL used in Link headers, invitation mails and hosted pages. */
  publicUrl: string;
  /** The service's name as people see it: the console's brand (SERVICE_NAME). */
  serviceName: string;
  sessionTtlHours: number;
  /** How long a resolved credential is remembered; revocations reach every process at once anyway. */
  authCacheSeconds: number;
  /** How long a job may run before it is taken for crashed and retried. */
  jobTimeoutSeconds: number;
  /** How often an idle worker looks for jobs no notification announced (JOB_POLL_SECONDS); absent: by engine (jobs/index.ts). */
  jobPollSeconds: number | undefined;
  /** Let outbound webhooks reach loopback addresses: local development and tests only. */
  webhooksAllowLoopback: boolean;
  /** How long the sandbox inbox (`/sandbox/mail`) keeps a mail. */
  sandboxMailRetentionHours: number;
  /** The sandbox inbox, or an SMTP server (SMTP_URL, MAIL_FROM); live mode needs SMTP. */
  mail: MailSettings;
  /** Crash-test points (FAULT_CRASH_AT, FAULT_MARKER): for the crash tests only. */
  faults: { crashAt?: string; marker?: string };
  /** Charge currency, platform and provider fees, exchange rates (docs/fees.md). */
  money: MoneySettings;
  /** How long a card authorisation holds (7 days at Stripe): bids held longer are dropped (docs/auctions.md). */
  auctionHoldHours: number;
  /** How long a payment may stay `pending` with nothing paid before it expires (cancelled, reason `expired`). */
  pendingPaymentTtlHours: number;
  /** How many outbid bids (other shoppers' best) keep their card hold as runners-up until the winner pays. */
  auctionBackupHolds: number;
  /** `X-Total-Count` is exact up to this many records; past it the count stops and says it is capped. */
  listCountCap: number;
  /** Chain adapters: settings per chain and network (docs/chains.md lists them with their sources). */
  chains: ChainsConfig;
}

export type { ChainNetworkSettings, ChainsConfig } from "./config/chains.ts";
export type { StripeApiAddress } from "./config/payments.ts";
export { ConfigError, loadChainsConfig };

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

export function loadConfig(env: Env = process.env): Config {
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError("DATABASE_URL", "must start with postgres:// or postgresql://");
  }
  const logLevel = env.LOG_LEVEL || "info";
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError("LOG_LEVEL", `must be one of ${LOG_LEVELS.join(", ")}`);
  }
  const port = integer(env, "PORT", 3000, 0, 65535);
  const host = env.HOST || "127.0.0.1";
  const publicUrl = (env.PUBLIC_URL || `http://${host === "0.0.0.0" ? "localhost" : host}:${port}`).replace(
    /\/$/,
    "",
  );
  if (!/^https?:\/\//.test(publicUrl)) throw new ConfigError("PUBLIC_URL", "must be an http(s) URL");
  // Test mode unless switched off: live mode moves real money, so it must be asked for.
  const sandbox = boolean(env, "SANDBOX", true);
  return {
    port,
    host,
    dataDir: path.resolve(env.DATA_DIR || ".data"),
    databaseUrl,
    ...loadDatabaseSettings(env),
    sandbox,
    logLevel,
    publicUrl,
    serviceName: (env.SERVICE_NAME ?? "").trim().slice(0, 60) || "Console",
    sessionTtlHours: integer(env, "SESSION_TTL_HOURS", 24 * 7, 1, 24 * 365),
    ...processSettings(env),
    authCacheSeconds: integer(env, "AUTH_CACHE_SECONDS", 30, 0, 3600),
    jobTimeoutSeconds: integer(env, "JOB_TIMEOUT_SECONDS", 300, 1, 24 * 3600),
    pgliteSharedBuffersMb: integer(env, "PGLITE_SHARED_BUFFERS_MB", 32, 1, 4096),
    jobPollSeconds: env.JOB_POLL_SECONDS ? integer(env, "JOB_POLL_SECONDS", 5, 1, 300) : undefined,
    ...loadPaymentSettings(env, sandbox),
    webhooksAllowLoopback: boolean(env, "WEBHOOKS_ALLOW_LOOPBACK", false),
    sandboxMailRetentionHours: integer(env, "SANDBOX_MAIL_RETENTION_HOURS", 72, 1, 24 * 30),
    mail: loadMailSettings(env, sandbox, publicUrl),
    faults: { crashAt: env.FAULT_CRASH_AT || undefined, marker: env.FAULT_MARKER || undefined },
    ...loadSecretSettings(env, sandbox),
    money: loadMoneySettings(env, sandbox, (setting, message) => {
      throw new ConfigError(setting, message);
    }),
    auctionHoldHours: integer(env, "AUCTION_HOLD_HOURS", 24 * 7, 1, 24 * 31),
    pendingPaymentTtlHours: decimal(env, "PENDING_PAYMENT_TTL_HOURS", 24, 0.0001, 24 * 365),
    auctionBackupHolds: integer(env, "AUCTION_BACKUP_HOLDS", 1, 0, 10),
    listCountCap: integer(env, "LIST_COUNT_CAP", DEFAULT_COUNT_CAP, 1, 10_000_000),
    chains: loadChainsConfig(env, sandbox),
    ...loadServingSettings(env),
  };
}
