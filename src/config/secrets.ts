import { DEFAULT_PASSWORD_HASH_COST } from "../platform/auth/secrets.ts";
import { ConfigError, type Env, integer } from "./parse.ts";

/** The master keys that seal stored secrets (docs/custody.md). */
export interface SecretSettings {
  /** 32-byte key (base64) sealing stored secrets; absent: generated once in `dataDir`. */
  masterKey: Buffer | undefined;
  /** Former master keys (SECRETS_MASTER_KEY_PREVIOUS): they still unwrap until `rotate-master-key` has run. */
  masterKeyPrevious: Buffer[];
  /** scrypt's N as a power of two for passwords set from now on (PASSWORD_HASH_COST). */
  passwordHashCost: number;
}

/** Below this a password hash is cheap to guess: test mode only (tests sign up hundreds of users). */
const LIVE_MIN_PASSWORD_HASH_COST = DEFAULT_PASSWORD_HASH_COST;

export function loadSecretSettings(env: Env, sandbox: boolean): SecretSettings {
  const passwordHashCost = integer(env, "PASSWORD_HASH_COST", DEFAULT_PASSWORD_HASH_COST, 10, 17);
  if (!sandbox && passwordHashCost < LIVE_MIN_PASSWORD_HASH_COST) {
    throw new ConfigError(
      "PASSWORD_HASH_COST",
      `must be at least ${LIVE_MIN_PASSWORD_HASH_COST} in live mode (lower costs are for tests)`,
    );
  }
  return {
    passwordHashCost,
    masterKey: masterKey(env),
    masterKeyPrevious: (env.SECRETS_MASTER_KEY_PREVIOUS ?? "")
      .split(",")
      .filter((k) => k.trim() !== "")
      .map((k) => base64Key("SECRETS_MASTER_KEY_PREVIOUS", k)),
  };
}

/** A base64 AES-256 key: exactly 32 bytes once decoded, so a truncated paste fails at start-up. */
function base64Key(name: string, raw: string): Buffer {
  const value = raw.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || Buffer.from(value, "base64").length !== 32) {
    throw new ConfigError(name, "must be base64 of exactly 32 bytes (e.g. `openssl rand -base64 32`)");
  }
  return Buffer.from(value, "base64");
}

function masterKey(env: Env): Buffer | undefined {
  const raw = env.SECRETS_MASTER_KEY;
  if (raw === undefined || raw === "") return undefined;
  const key = Buffer.from(raw, "base64");
  if (key.length !== 32)
    throw new ConfigError("SECRETS_MASTER_KEY", "must be 32 random bytes, base64-encoded");
  return key;
}
