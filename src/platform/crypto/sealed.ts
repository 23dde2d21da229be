import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { type Keyring, keyringFromConfig } from "./keyring.ts";

type KeySettings = Parameters<typeof keyringFromConfig>[0];
const rings = new WeakMap<KeySettings, Keyring>();

/**
 * The master keys that seal stored secrets: the same keyring wallet custody uses
 * (SECRETS_MASTER_KEY and SECRETS_MASTER_KEY_PREVIOUS, or the key files in DATA_DIR), so after a
 * rotation a value sealed under a former key still opens until `npm run rotate-master-key` re-seals it.
 */
export function sealingKeys(config: KeySettings): Keyring {
  let ring = rings.get(config);
  if (!ring) {
    ring = keyringFromConfig(config);
    rings.set(config, ring);
  }
  return ring;
}

/** The key new values are sealed under. */
export function masterKeyOf(config: KeySettings): Buffer {
  return sealingKeys(config).current.key;
}

/** Opens a value sealed under any key of the ring, the current one first. */
export function unsealWithAny(
  keyring: Keyring,
  sealed: string,
  context: string,
): { plaintext: string; current: boolean } {
  const keys = [
    keyring.current,
    ...keyring.ids.filter((id) => id !== keyring.current.id).map((id) => keyring.get(id)!),
  ];
  for (const key of keys) {
    try {
      return { plaintext: unseal(key.key, sealed, context), current: key.id === keyring.current.id };
    } catch {
      // Sealed under another key of the ring: try the next.
    }
  }
  throw new Error(`A sealed secret (${context}) opens under none of the configured master keys`);
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
