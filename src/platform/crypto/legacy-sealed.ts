import { createDecipheriv } from "node:crypto";
import type { Keyring } from "./keyring.ts";

/**
 * Opens a value written by the service's former second scheme: AES-256-GCM straight under the
 * master key, `v1.<iv>.<tag>.<body>` (base64url), the context as additional data and no key id.
 * Nothing seals this way any more; webhook secrets, KYC tokens, payment tokens and sandbox mails
 * stored before the schemes were made one still open here, under any key of the ring, until
 * `npm run rotate-master-key` re-seals them as envelopes.
 */
export function isLegacySealed(sealed: string): boolean {
  return sealed.startsWith("v1.") && sealed.split(".").length === 4;
}

export function openLegacySealed(keyring: Keyring, sealed: string, context: string): string {
  const [, iv, tag, body] = sealed.split(".");
  const keys = [keyring.current, ...keyring.ids.map((id) => keyring.get(id)!)];
  for (const key of keys) {
    try {
      const decipher = createDecipheriv("aes-256-gcm", key.key, Buffer.from(iv, "base64url"));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString(
        "utf8",
      );
    } catch {
      // Sealed under another key of the ring: try the next.
    }
  }
  throw new Error(`A sealed secret (${context}) opens under none of the configured master keys`);
}
