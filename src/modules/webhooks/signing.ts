import { createHmac, randomBytes } from "node:crypto";

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/**
 * The `webhook-signature` value (Standard Webhooks): `v1,` and the base64 HMAC-SHA256 of
 * "id.timestamp.body", keyed with the secret's base64-decoded part; one entry per secret,
 * space-separated, so a receiver may hold either secret during a rotation.
 */
export function signatureHeader(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
      return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
    })
    .join(" ");
}
