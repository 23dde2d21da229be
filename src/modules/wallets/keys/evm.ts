import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { invalid } from "../../../platform/http/errors.ts";
import type { KeyMaterial } from "./types.ts";

export function generateEvmKey(): KeyMaterial {
  const secret = generatePrivateKey();
  return { accountId: privateKeyToAccount(secret).address, publicKey: null, secret };
}

/** A secp256k1 private key as 64 hex digits (with or without 0x); the account is its address. */
export function importEvmKey(privateKey: string, path: string): KeyMaterial {
  const hex = (privateKey.startsWith("0x") ? privateKey : `0x${privateKey}`).toLowerCase() as `0x${string}`;
  if (!/^0x[0-9a-f]{64}$/.test(hex)) throw invalid(path, "must be 32 bytes as 64 hexadecimal digits");
  try {
    return { accountId: privateKeyToAccount(hex).address, publicKey: null, secret: hex };
  } catch {
    // viem's message would repeat the key: answer a fixed one instead.
    throw invalid(path, "is not a valid secp256k1 private key");
  }
}
