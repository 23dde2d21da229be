import { createHmac, createPrivateKey, createPublicKey } from "node:crypto";
import { KeyPair, type KeyPairString } from "@near-js/crypto";
import { base58 } from "@scure/base";
import { mnemonicToSeedSync, validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { isNearAccountId, isNearImplicitAccount } from "../../../platform/chains/accounts.ts";
import { invalid } from "../../../platform/http/errors.ts";
import type { KeyMaterial } from "./types.ts";

function implicitAccountOf(pair: KeyPair): string {
  return Buffer.from(pair.getPublicKey().data).toString("hex");
}

function material(pair: KeyPair): KeyMaterial {
  return {
    accountId: implicitAccountOf(pair),
    publicKey: pair.getPublicKey().toString(),
    secret: pair.toString(),
  };
}

export function generateNearKey(): KeyMaterial {
  return material(KeyPair.fromRandom("ed25519"));
}

// NEAR wallets derive a phrase's key by SLIP-10 for ed25519 on the path m/44'/397'/0'
// (what near-seed-phrase does): every step hardened, HMAC-SHA512 keyed by the parent chain code.
export function slip10Ed25519(seed: Uint8Array, path: number[]): Buffer {
  let digest = createHmac("sha512", "ed25519 seed").update(seed).digest();
  for (const index of path) {
    const data = Buffer.alloc(37);
    digest.copy(data, 1, 0, 32);
    data.writeUInt32BE((index | 0x80000000) >>> 0, 33);
    digest = createHmac("sha512", digest.subarray(32)).update(data).digest();
  }
  return digest.subarray(0, 32);
}

// The PKCS#8 wrapping of a raw ed25519 private key (RFC 8410), so Node derives its public key.
const PKCS8_ED25519 = Buffer.from("302e020100300506032b657004220420", "hex");

function pairFromPhrase(phrase: string): KeyPair {
  const seed = slip10Ed25519(mnemonicToSeedSync(phrase), [44, 397, 0]);
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519, seed]),
    format: "der",
    type: "pkcs8",
  });
  const jwk = createPublicKey(privateKey).export({ format: "jwk" });
  const publicKey = Buffer.from(jwk.x as string, "base64url");
  return KeyPair.fromString(`ed25519:${base58.encode(Buffer.concat([seed, publicKey]))}`);
}

function parsePhraseOrKey(phraseOrKey: string, path: string): KeyPair {
  const text = phraseOrKey.trim();
  if (text.startsWith("ed25519:")) {
    try {
      const pair = KeyPair.fromString(text as KeyPairString);
      // The 64-byte form carries the public key; make sure it belongs to the private half.
      const probe = new Uint8Array([1, 2, 3]);
      if (!pair.verify(probe, pair.sign(probe).signature)) throw new Error("mismatch");
      return pair;
    } catch {
      throw invalid(path, "is not a valid ed25519 secret key");
    }
  }
  const words = text.toLowerCase().split(/\s+/).join(" ");
  if (words.split(" ").length >= 12 && validateMnemonic(words, wordlist)) return pairFromPhrase(words);
  throw invalid(path, "must be an `ed25519:` secret key or a BIP-39 seed phrase");
}

/**
 * A NEAR key from an `ed25519:` secret key or a seed phrase. An implicit account must be the
 * key's own; a named account cannot be derived from the key and is only checked against the rules.
 */
export function importNearKey(
  input: { account_id?: string; phrase_or_key: string },
  path: string,
): KeyMaterial {
  const pair = parsePhraseOrKey(input.phrase_or_key, `${path}/phrase_or_key`);
  const key = material(pair);
  if (input.account_id === undefined) return key;
  return { ...key, accountId: checkNearAccount(input.account_id, key.publicKey!, `${path}/account_id`) };
}

/** Checks a NEAR account id against the rules and, when implicit, against the wallet's public key. */
export function checkNearAccount(accountId: string, publicKey: string, path: string): string {
  if (!isNearAccountId(accountId)) throw invalid(path, "is not a valid NEAR account id");
  if (isNearImplicitAccount(accountId)) {
    const own = Buffer.from(base58.decode(publicKey.replace(/^ed25519:/, ""))).toString("hex");
    if (own !== accountId) throw invalid(path, "is an implicit account of another key");
  }
  return accountId;
}
