import path from "node:path";

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
  /** Base64 of the 32-byte master key wrapping wallet secrets; absent: a key file in `dataDir`. */
  secretsMasterKey: string | undefined;
  /** Former master keys, still accepted for unwrapping until `rotate-master-key` has run. */
  secretsMasterKeyPrevious: string[];
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

/** A base64 AES-256 key: exactly 32 bytes once decoded, so a truncated paste fails at start-up. */
function masterKey(name: string, raw: string): string {
  const value = raw.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || Buffer.from(value, "base64").length !== 32) {
    throw new ConfigError(name, "must be base64 of exactly 32 bytes (e.g. `openssl rand -base64 32`)");
  }
  return value;
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
  return {
    port,
    host,
    dataDir: path.resolve(env.DATA_DIR || ".data"),
    databaseUrl,
    // The embedded database is for trying and developing, so it defaults to sandbox mode.
    sandbox: boolean(env, "SANDBOX", databaseUrl === undefined),
    logLevel,
    publicUrl,
    sessionTtlHours: integer(env, "SESSION_TTL_HOURS", 24 * 7, 1, 24 * 365),
    runWorker: boolean(env, "RUN_WORKER", true),
    secretsMasterKey: env.SECRETS_MASTER_KEY
      ? masterKey("SECRETS_MASTER_KEY", env.SECRETS_MASTER_KEY)
      : undefined,
    secretsMasterKeyPrevious: (env.SECRETS_MASTER_KEY_PREVIOUS ?? "")
      .split(",")
      .filter((k) => k.trim() !== "")
      .map((k) => masterKey("SECRETS_MASTER_KEY_PREVIOUS", k)),
  };
}
