import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Config } from "../../config.ts";

/**
 * AES-256-GCM sealing for what the KYC module must be able to read back: the edit token (answered
 * on every POST, as the interface asks) and the widget's inputs while they wait in a job.
 */
export interface Sealer {
  seal(plain: string): string;
  open(sealed: string): string;
}

const KEY_FILE = "kyc-secret.key";

/** The key comes from KYC_SECRET, or from a random key file the embedded setup keeps (mode 0600). */
function secretOf(config: Config): Buffer {
  if (config.kycSecret) return Buffer.from(config.kycSecret, "utf8");
  const file = path.join(config.dataDir, KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    // `wx` fails if another process wrote it first; then that one's key is read below.
    try {
      writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw error;
    }
  }
  return Buffer.from(readFileSync(file, "utf8").trim(), "utf8");
}

export function createSealer(config: Config): Sealer {
  // HKDF gives a key of the right size from a secret of any length, bound to this one use.
  const key = Buffer.from(hkdfSync("sha256", secretOf(config), "kyc", "kyc-sealing-v1", 32));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return `v1.${iv.toString("base64url")}.${body.toString("base64url")}.${cipher.getAuthTag().toString("base64url")}`;
    },
    open(sealed) {
      const [version, iv, body, tag] = sealed.split(".");
      if (version !== "v1" || !tag) throw new Error("Unknown sealed format");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString(
        "utf8",
      );
    },
  };
}
