import { randomBytes } from "node:crypto";
import { base58 } from "@scure/base";
import {
  createKeyPairFromBytes,
  createKeyPairFromPrivateKeyBytes,
  getAddressEncoder,
  getAddressFromPublicKey,
} from "@solana/kit";
import { invalid } from "../../../platform/http/errors.ts";
import type { KeyMaterial } from "./types.ts";

/** The secret is kept as Solana's usual 64-byte secret key (seed then public key), base58. */
async function fromSeed(seed: Uint8Array): Promise<KeyMaterial> {
  const pair = await createKeyPairFromPrivateKeyBytes(seed);
  const address = await getAddressFromPublicKey(pair.publicKey);
  const secret = new Uint8Array(64);
  secret.set(seed, 0);
  secret.set(getAddressEncoder().encode(address), 32);
  return { accountId: address, publicKey: null, secret: base58.encode(secret) };
}

export function generateSolanaKey(): Promise<KeyMaterial> {
  return fromSeed(new Uint8Array(randomBytes(32)));
}

function decode(privateKey: string): Uint8Array | undefined {
  const text = privateKey.trim();
  if (text.startsWith("[")) {
    // solana-keygen's JSON file: an array of 64 byte values.
    try {
      const bytes = JSON.parse(text) as unknown;
      if (Array.isArray(bytes) && bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
        return Uint8Array.from(bytes as number[]);
      }
    } catch {}
    return undefined;
  }
  try {
    return base58.decode(text);
  } catch {
    return undefined;
  }
}

/**
 * Accepts the 64-byte secret key (base58, as wallets export it, or solana-keygen's JSON array) or
 * a bare 32-byte seed; the account is the address of its public key.
 */
export async function importSolanaKey(privateKey: string, path: string): Promise<KeyMaterial> {
  const bytes = decode(privateKey);
  if (bytes?.length === 32) return fromSeed(bytes);
  if (bytes?.length !== 64) {
    throw invalid(path, "must be a base58 64-byte secret key, a 32-byte seed or a JSON array of 64 bytes");
  }
  try {
    // Refuses a secret whose second half is not the public key of its first half.
    await createKeyPairFromBytes(bytes);
  } catch {
    throw invalid(path, "its public half does not match its private half");
  }
  return fromSeed(bytes.slice(0, 32));
}
