import { createCipheriv, randomBytes } from "node:crypto";

/**
 * A value sealed the way the service's former second scheme did (AES-256-GCM straight under the
 * master key, `v1.<iv>.<tag>.<body>`, no key id), as rows written before the schemes were made
 * one still hold: tests check such values still open and are moved to envelopes by the reseal.
 */
export function sealTheFormerWay(key: Buffer, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}
