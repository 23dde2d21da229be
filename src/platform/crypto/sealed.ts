import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Config } from "../../config.ts";

const cache = new Map<string, Buffer>();

/**
 * The key that seals stored secrets: SECRETS_MASTER_KEY when set (required when several hosts share one
 * database), otherwise 32 random bytes generated once in DATA_DIR, readable only by the owner.
 */
export function masterKeyOf(config: Pick<Config, "masterKey" | "dataDir">): Buffer {
  if (config.masterKey) return config.masterKey;
  const file = path.join(config.dataDir, "master.key");
  const cached = cache.get(file);
  if (cached) return cached;
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  try {
    // "wx": two processes starting together cannot both write a key; the loser reads the winner's.
    writeFileSync(file, randomBytes(32).toString("base64"), { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as { code?: string }).code !== "EEXIST") throw error;
  }
  const key = Buffer.from(readFileSync(file, "utf8").trim(), "base64");
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`);
  cache.set(file, key);
  return key;
}

/**
 * AES-256-GCM with a random 96-bit nonce. `context` (e.g. the owning row's id) is authenticated
 * but not stored, so a sealed value copied onto another row no longer opens.
 */
export function seal(key: Buffer, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

export function unseal(key: Buffer, sealed: string, context: string): string {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== "v1" || !body) throw new Error("Unknown sealed-secret format");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}
