import path from "node:path";
import { loadMoneySettings, type MoneySettings } from "./platform/money/settings.ts";

/** Every setting the service reads, validated once at start-up. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection string; when absent the embedded PGlite database in `dataDir` is used. */
  databaseUrl: string | undefined;
  /** Test mode: sandbox providers and chains, `sk_test_` keys. */
  sandbox: boolean;
  logLevel: string;
  /** Public base URL used in Link headers, invitation mails and hosted pages. */
  publicUrl: string;
  sessionTtlHours: number;
  /** Run the job worker in this process (the API and the worker can be split in production). */
  runWorker: boolean;
  /** How long a resolved credential is remembered; revocations reach every process at once anyway. */
  authCacheSeconds: number;
  /** Which payment provider serves `card` and `us_bank_account`: `sandbox` or `stripe`. */
  paymentsProvider: "sandbox" | "stripe";
  /** Stripe secret (or restricted) key; required when `paymentsProvider` is `stripe`. */
  stripeSecretKey: string | undefined;
  /** Signing secret of the Stripe webhook endpoint (`whsec_…`); required with Stripe. */
  stripeWebhookSecret: string | undefined;
  /** Let outbound webhooks reach loopback addresses: local development and tests only. */
  webhooksAllowLoopback: boolean;
  /** 32-byte key (base64) sealing stored secrets; absent: generated once in `dataDir`. */
  masterKey: Buffer | undefined;
  /** Charge currency, platform and provider fees, exchange rates (docs/fees.md). */
  money: MoneySettings;
  /** How long a card authorisation holds (7 days at Stripe): bids held longer are dropped (docs/auctions.md). */
  auctionHoldHours: number;
}

export class ConfigError extends Error {
  readonly setting: string;
  constructor(setting: string, message: string) {
    super(`Invalid setting ${setting}: ${message}`);
    this.setting = setting;
  }
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}`);
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (["1", "true", "yes", "on"].includes(raw.toLowerCase())) return true;
  if (["0", "false", "no", "off"].includes(raw.toLowerCase())) return false;
  throw new ConfigError(name, `expected true or false, got "${raw}"`);
}

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
    sandbox,
    logLevel,
    publicUrl,
    sessionTtlHours: integer(env, "SESSION_TTL_HOURS", 24 * 7, 1, 24 * 365),
    runWorker: boolean(env, "RUN_WORKER", true),
    authCacheSeconds: integer(env, "AUTH_CACHE_SECONDS", 30, 0, 3600),
    ...paymentSettings(env, sandbox),
    webhooksAllowLoopback: boolean(env, "WEBHOOKS_ALLOW_LOOPBACK", false),
    masterKey: masterKey(env),
    money: loadMoneySettings(env, sandbox, (setting, message) => {
      throw new ConfigError(setting, message);
    }),
    auctionHoldHours: integer(env, "AUCTION_HOLD_HOURS", 24 * 7, 1, 24 * 31),
  };
}

function paymentSettings(env: Env, sandbox: boolean) {
  // Test mode uses the sandbox provider; a live server must name its real provider's keys.
  const provider = env.PAYMENTS_PROVIDER || (sandbox ? "sandbox" : "stripe");
  if (provider !== "sandbox" && provider !== "stripe") {
    throw new ConfigError("PAYMENTS_PROVIDER", `must be sandbox or stripe, got "${provider}"`);
  }
  const stripeSecretKey = env.STRIPE_SECRET_KEY || undefined;
  const stripeWebhookSecret = env.STRIPE_WEBHOOK_SECRET || undefined;
  if (stripeSecretKey !== undefined && !/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/.test(stripeSecretKey)) {
    throw new ConfigError("STRIPE_SECRET_KEY", "must be a Stripe secret key (sk_test_…, sk_live_… or rk_…)");
  }
  if (stripeWebhookSecret !== undefined && !/^whsec_[A-Za-z0-9+/=]+$/.test(stripeWebhookSecret)) {
    throw new ConfigError("STRIPE_WEBHOOK_SECRET", "must be a webhook signing secret (whsec_…)");
  }
  if (provider === "stripe") {
    if (!stripeSecretKey)
      throw new ConfigError("STRIPE_SECRET_KEY", "is required when PAYMENTS_PROVIDER is stripe");
    if (!stripeWebhookSecret) {
      throw new ConfigError("STRIPE_WEBHOOK_SECRET", "is required when PAYMENTS_PROVIDER is stripe");
    }
    if (sandbox !== stripeSecretKey.includes("_test_")) {
      throw new ConfigError(
        "STRIPE_SECRET_KEY",
        sandbox ? "must be a test key in sandbox mode" : "must be a live key",
      );
    }
  }
  return { paymentsProvider: provider as "sandbox" | "stripe", stripeSecretKey, stripeWebhookSecret };
}

function masterKey(env: Env): Buffer | undefined {
  const raw = env.SECRETS_MASTER_KEY;
  if (raw === undefined || raw === "") return undefined;
  const key = Buffer.from(raw, "base64");
  if (key.length !== 32)
    throw new ConfigError("SECRETS_MASTER_KEY", "must be 32 random bytes, base64-encoded");
  return key;
}
