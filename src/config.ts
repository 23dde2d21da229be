import path from "node:path";
import { type ChainsConfig, loadChainsConfig } from "./config/chains.ts";
import { loadMailSettings, type MailSettings } from "./config/mail.ts";
import { boolean, ConfigError, type Env, integer } from "./config/parse.ts";
import { type ProcessSettings, processSettings } from "./config/process.ts";
import { DEFAULT_COUNT_CAP } from "./platform/http/pagination.ts";
import { parseRateLimits, type RateLimitSettings } from "./platform/http/rate-limit.ts";
import { loadMoneySettings, type MoneySettings } from "./platform/money/settings.ts";

/** Every setting the service reads, validated once at start-up. */
export interface Config extends ProcessSettings {
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
  sessionTtlHours: number;
  /** How long a resolved credential is remembered; revocations reach every process at once anyway. */
  authCacheSeconds: number;
  /** How long a job may run before it is taken for crashed and retried. */
  jobTimeoutSeconds: number;
  /** How often an idle worker looks for jobs no notification announced (JOB_POLL_SECONDS); absent: by engine (jobs/index.ts). */
  jobPollSeconds: number | undefined;
  /** Which payment provider serves `card` and `us_bank_account`: `sandbox` or `stripe`. */
  paymentsProvider: "sandbox" | "stripe";
  /** Stripe secret (or restricted) key; required when `paymentsProvider` is `stripe`. */
  stripeSecretKey: string | undefined;
  /** Signing secret of the Stripe webhook endpoint (`whsec_…`); required with Stripe. */
  stripeWebhookSecret: string | undefined;
  /** Seller onboarding provider (`KYC_PROVIDER`, by default the payments provider) and its Connect webhook secret. */
  kyc: { provider: "sandbox" | "stripe"; connectWebhookSecret: string | undefined };
  /**
   * Stripe publishable key (`pk_test_…`/`pk_live_…`) the hosted checkout gives Stripe.js; public by
   * design, required with Stripe because the page makes the card's payment method with it.
   */
  stripePublishableKey: string | undefined;
  /** Where the hosted checkout loads Stripe.js from; tests point it at a loopback stand-in. */
  stripeJsUrl: string;
  /** Where the Stripe SDK sends API calls (STRIPE_API_HOST/PORT/PROTOCOL); absent: Stripe's own. */
  stripeApi: StripeApiAddress | undefined;
  /** Let outbound webhooks reach loopback addresses: local development and tests only. */
  webhooksAllowLoopback: boolean;
  /** How long the sandbox inbox (`/sandbox/mail`) keeps a mail. */
  sandboxMailRetentionHours: number;
  /** The sandbox inbox, or an SMTP server (SMTP_URL, MAIL_FROM); live mode needs SMTP. */
  mail: MailSettings;
  /** OpenTelemetry traces go to this OTLP/HTTP collector when set (OTEL_EXPORTER_OTLP_ENDPOINT). */
  otelEndpoint: string | undefined;
  /** Crash-test points (FAULT_CRASH_AT, FAULT_MARKER): for the crash tests only. */
  faults: { crashAt?: string; marker?: string };
  /** Bearer token `GET /metrics` asks for; absent: metrics are not served (404). */
  metricsToken: string | undefined;
  /** 32-byte key (base64) sealing stored secrets; absent: generated once in `dataDir`. */
  masterKey: Buffer | undefined;
  /** Former master keys (SECRETS_MASTER_KEY_PREVIOUS): they still unwrap until `rotate-master-key` has run. */
  masterKeyPrevious: Buffer[];
  /** Charge currency, platform and provider fees, exchange rates (docs/fees.md). */
  money: MoneySettings;
  /** How long a card authorisation holds (7 days at Stripe): bids held longer are dropped (docs/auctions.md). */
  auctionHoldHours: number;
  /** How many outbid bids (other shoppers' best) keep their card hold as runners-up until the winner pays. */
  auctionBackupHolds: number;
  /** `X-Total-Count` is exact up to this many records; past it the count stops and says it is capped. */
  listCountCap: number;
  /** Chain adapters: settings per chain and network (docs/chains.md lists them with their sources). */
  chains: ChainsConfig;
  /** Per-client and per-price request limits (`RATE_LIMITS` overrides; docs/reliability.md). */
  rateLimits: RateLimitSettings;
  /** Which proxies' `X-Forwarded-For` names the client (`TRUST_PROXY`, Fastify's `trustProxy`). */
  trustProxy: boolean | number | string;
}

export interface StripeApiAddress {
  host: string;
  port: number | undefined;
  protocol: "http" | "https";
}

export type { ChainNetworkSettings, ChainsConfig } from "./config/chains.ts";
export { ConfigError, loadChainsConfig };

/** A base64 AES-256 key: exactly 32 bytes once decoded, so a truncated paste fails at start-up. */
function base64Key(name: string, raw: string): Buffer {
  const value = raw.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || Buffer.from(value, "base64").length !== 32) {
    throw new ConfigError(name, "must be base64 of exactly 32 bytes (e.g. `openssl rand -base64 32`)");
  }
  return Buffer.from(value, "base64");
}

/** A secret long enough not to be guessed, in characters a header carries as is. */
function metricsToken(env: Env): string | undefined {
  const raw = env.METRICS_TOKEN || undefined;
  if (raw !== undefined && !/^[A-Za-z0-9._~+/=-]{24,256}$/.test(raw)) {
    throw new ConfigError("METRICS_TOKEN", "must be 24 to 256 characters of A-Z a-z 0-9 . _ ~ + / = -");
  }
  return raw;
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
    ...processSettings(env),
    authCacheSeconds: integer(env, "AUTH_CACHE_SECONDS", 30, 0, 3600),
    jobTimeoutSeconds: integer(env, "JOB_TIMEOUT_SECONDS", 300, 1, 24 * 3600),
    pgliteSharedBuffersMb: integer(env, "PGLITE_SHARED_BUFFERS_MB", 32, 1, 4096),
    jobPollSeconds: env.JOB_POLL_SECONDS ? integer(env, "JOB_POLL_SECONDS", 5, 1, 300) : undefined,
    ...paymentSettings(env, sandbox),
    kyc: kycSettings(env, sandbox),
    webhooksAllowLoopback: boolean(env, "WEBHOOKS_ALLOW_LOOPBACK", false),
    sandboxMailRetentionHours: integer(env, "SANDBOX_MAIL_RETENTION_HOURS", 72, 1, 24 * 30),
    mail: loadMailSettings(env, sandbox, publicUrl),
    otelEndpoint: otelEndpoint(env),
    faults: { crashAt: env.FAULT_CRASH_AT || undefined, marker: env.FAULT_MARKER || undefined },
    metricsToken: metricsToken(env),
    masterKey: masterKey(env),
    masterKeyPrevious: (env.SECRETS_MASTER_KEY_PREVIOUS ?? "")
      .split(",")
      .filter((k) => k.trim() !== "")
      .map((k) => base64Key("SECRETS_MASTER_KEY_PREVIOUS", k)),
    money: loadMoneySettings(env, sandbox, (setting, message) => {
      throw new ConfigError(setting, message);
    }),
    auctionHoldHours: integer(env, "AUCTION_HOLD_HOURS", 24 * 7, 1, 24 * 31),
    auctionBackupHolds: integer(env, "AUCTION_BACKUP_HOLDS", 1, 0, 10),
    listCountCap: integer(env, "LIST_COUNT_CAP", DEFAULT_COUNT_CAP, 1, 10_000_000),
    chains: loadChainsConfig(env, sandbox),
    rateLimits: rateLimits(env),
    trustProxy: trustProxy(env),
  };
}

function rateLimits(env: Env): RateLimitSettings {
  const parsed = parseRateLimits(env.RATE_LIMITS);
  if (typeof parsed === "string") throw new ConfigError("RATE_LIMITS", parsed);
  return parsed;
}

/**
 * Off by default: the client is the connection's peer. Behind a load balancer, `true` trusts every
 * hop, a number trusts that many hops, and a list of addresses or CIDR ranges trusts those proxies.
 */
function trustProxy(env: Env): boolean | number | string {
  const value = (env.TRUST_PROXY ?? "").trim();
  if (value === "" || value === "false") return false;
  if (value === "true") return true;
  if (/^\d{1,2}$/.test(value)) return Number(value);
  if (/^[0-9a-fA-F.:/, ]+$/.test(value)) return value;
  throw new ConfigError("TRUST_PROXY", "must be true, false, a hop count, or addresses/CIDR ranges");
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
  const stripePublishableKey = env.STRIPE_PUBLISHABLE_KEY || undefined;
  if (stripePublishableKey !== undefined && !/^pk_(test|live)_[A-Za-z0-9]+$/.test(stripePublishableKey)) {
    throw new ConfigError(
      "STRIPE_PUBLISHABLE_KEY",
      "must be a Stripe publishable key (pk_test_… or pk_live_…)",
    );
  }
  if (provider === "stripe") {
    // The hosted checkout turns the card into a payment method with Stripe.js, which needs this key.
    if (!stripePublishableKey) {
      throw new ConfigError("STRIPE_PUBLISHABLE_KEY", "is required when PAYMENTS_PROVIDER is stripe");
    }
    if (sandbox !== stripePublishableKey.startsWith("pk_test_")) {
      throw new ConfigError(
        "STRIPE_PUBLISHABLE_KEY",
        sandbox ? "must be a test key in sandbox mode" : "must be a live key",
      );
    }
  }
  const stripeJsUrl = env.STRIPE_JS_URL || "https://js.stripe.com/v3/";
  let jsUrl: URL | undefined;
  try {
    jsUrl = new URL(stripeJsUrl);
  } catch {}
  // https only, but a loopback stand-in may be http: the page's CSP names this URL's origin.
  const loopback = jsUrl && /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(jsUrl.hostname);
  if (
    !jsUrl ||
    !(jsUrl.protocol === "https:" || (jsUrl.protocol === "http:" && loopback)) ||
    jsUrl.username
  ) {
    throw new ConfigError("STRIPE_JS_URL", "must be an https URL (http only on a loopback address)");
  }
  // Stripe asks that Stripe.js always come from js.stripe.com (PCI); a stand-in is for test mode.
  if (!sandbox && provider === "stripe" && jsUrl.origin !== "https://js.stripe.com") {
    throw new ConfigError("STRIPE_JS_URL", "must be on https://js.stripe.com in live mode");
  }
  return {
    paymentsProvider: provider as "sandbox" | "stripe",
    stripeSecretKey,
    stripeWebhookSecret,
    stripePublishableKey,
    stripeJsUrl: jsUrl.href,
    stripeApi: stripeApiAddress(env, sandbox),
  };
}

/** STRIPE_API_HOST/PORT/PROTOCOL: point the Stripe SDK at a stand-in server (tests only). */
function stripeApiAddress(env: Env, sandbox: boolean): StripeApiAddress | undefined {
  const host = env.STRIPE_API_HOST || undefined;
  const protocol = env.STRIPE_API_PROTOCOL || "https";
  if (protocol !== "http" && protocol !== "https") {
    throw new ConfigError("STRIPE_API_PROTOCOL", "must be http or https");
  }
  const port = env.STRIPE_API_PORT ? integer(env, "STRIPE_API_PORT", 443, 1, 65535) : undefined;
  if (!host) {
    if (port !== undefined || env.STRIPE_API_PROTOCOL) {
      throw new ConfigError(
        "STRIPE_API_HOST",
        "is required when STRIPE_API_PORT or STRIPE_API_PROTOCOL is set",
      );
    }
    return undefined;
  }
  if (!/^[A-Za-z0-9.-]+$/.test(host)) throw new ConfigError("STRIPE_API_HOST", "must be a host name");
  // The secret key goes wherever this points: a live server talks to Stripe itself, nowhere else.
  if (!sandbox) throw new ConfigError("STRIPE_API_HOST", "is for test stand-ins and refused in live mode");
  return { host, port, protocol };
}

function kycSettings(env: Env, sandbox: boolean): Config["kyc"] {
  const fallback = paymentSettings(env, sandbox).paymentsProvider;
  const provider = env.KYC_PROVIDER || fallback;
  if (provider !== "sandbox" && provider !== "stripe") {
    throw new ConfigError("KYC_PROVIDER", `must be sandbox or stripe, got "${provider}"`);
  }
  const connectWebhookSecret = env.STRIPE_CONNECT_WEBHOOK_SECRET || undefined;
  if (connectWebhookSecret !== undefined && !/^whsec_[A-Za-z0-9+/=]+$/.test(connectWebhookSecret)) {
    throw new ConfigError("STRIPE_CONNECT_WEBHOOK_SECRET", "must be a webhook signing secret (whsec_…)");
  }
  if (provider === "stripe") {
    if (!env.STRIPE_SECRET_KEY)
      throw new ConfigError("STRIPE_SECRET_KEY", "is required when KYC_PROVIDER is stripe");
    if (!connectWebhookSecret) {
      throw new ConfigError("STRIPE_CONNECT_WEBHOOK_SECRET", "is required when KYC_PROVIDER is stripe");
    }
  }
  return { provider, connectWebhookSecret };
}

function masterKey(env: Env): Buffer | undefined {
  const raw = env.SECRETS_MASTER_KEY;
  if (raw === undefined || raw === "") return undefined;
  const key = Buffer.from(raw, "base64");
  if (key.length !== 32)
    throw new ConfigError("SECRETS_MASTER_KEY", "must be 32 random bytes, base64-encoded");
  return key;
}

function otelEndpoint(env: Env): string | undefined {
  const value = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!value) return undefined;
  if (!/^https?:\/\/[^\s]+$/.test(value)) {
    throw new ConfigError(
      "OTEL_EXPORTER_OTLP_ENDPOINT",
      "must be an http(s) URL, e.g. http://collector:4318",
    );
  }
  return value;
}
