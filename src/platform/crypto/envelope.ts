import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject } from "node:crypto";
import type { Keyring, MasterKey } from "./keyring.ts";
import { secureRandomBytes } from "./random.ts";

/**
 * A secret sealed by envelope encryption: the secret is encrypted with a fresh 256-bit data key,
 * and the data key is encrypted ("wrapped") by a master key. Rotating the master key re-wraps the
 * data key only; the secret's own ciphertext never changes.
 */
export interface Envelope {
  /** Id of the master key that wrapped `wrappedKey` (see `toMasterKey`). */
  keyId: string;
  /** `v1.` + base64(iv | encrypted data key | tag). */
  wrappedKey: string;
  /** `v1.` + base64(iv | encrypted secret | tag). */
  ciphertext: string;
}

/** Decryption failed: a tampered or swapped ciphertext, another record's context, or an unknown key. */
class CustodyError extends Error {}

const VERSION = "v1.";
// 96-bit IVs are what GCM is specified for; a fresh random one per encryption, never reused under
// the same key because every data key encrypts exactly one secret.
const IV_BYTES = 12;
const TAG_BYTES = 16;

/*
 * Keys reach the cipher as KeyObjects: given a Buffer, Node tests whether it is a KeyObject by a
 * path that costs more than the encryption (15 µs of CPU for a token's encryption against 3 to 6
 * with a KeyObject: `npm run bench:sealing`, docs/benchmarks.md "Sealing, ids and hooks"). A
 * master key's KeyObject is made once; a data key's is made from its bytes, which are then zeroed.
 */
const masterKeyObjects = new WeakMap<MasterKey, KeyObject>();
function keyObjectOf(master: MasterKey): KeyObject {
  let key = masterKeyObjects.get(master);
  if (!key) {
    key = createSecretKey(master.key);
    masterKeyObjects.set(master, key);
  }
  return key;
}

/** A data key's bytes as a KeyObject; the bytes are zeroed. */
function dataKeyObject(bytes: Buffer): KeyObject {
  try {
    return createSecretKey(bytes);
  } finally {
    bytes.fill(0);
  }
}

function encrypt(key: KeyObject, plaintext: Buffer, aad: string): string {
  const iv = secureRandomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, "utf8"));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return VERSION + Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64");
}

function decrypt(key: KeyObject, sealed: string, aad: string): Buffer {
  if (!sealed.startsWith(VERSION)) throw new CustodyError("Unknown envelope version");
  const raw = Buffer.from(sealed.slice(VERSION.length), "base64");
  if (raw.length < IV_BYTES + TAG_BYTES) throw new CustodyError("Truncated envelope");
  const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES), {
    authTagLength: TAG_BYTES,
  });
  decipher.setAAD(Buffer.from(aad, "utf8"));
  decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new CustodyError("The secret could not be decrypted: wrong record, tampered data or wrong key");
  }
}

// The context (e.g. `wallet:wal_…`) is bound into both layers as additional authenticated data,
// so a ciphertext or wrapped key copied onto another record fails to decrypt instead of yielding
// that other record's secret.
const wrapAad = (context: string) => `data-key|${context}`;
const secretAad = (context: string) => `secret|${context}`;

/** `master`: the key to wrap with, the keyring's current one unless the database names another. */
export function seal(
  keyring: Keyring,
  context: string,
  plaintext: string,
  master = keyring.current,
): Envelope {
  const dataKey = secureRandomBytes(32);
  try {
    const wrappedKey = encrypt(keyObjectOf(master), dataKey, wrapAad(context));
    // The data key's bytes are zeroed as they become a KeyObject: wrapped first.
    const ciphertext = encrypt(dataKeyObject(dataKey), Buffer.from(plaintext, "utf8"), secretAad(context));
    return { keyId: master.id, wrappedKey, ciphertext };
  } finally {
    dataKey.fill(0);
  }
}

function unwrap(keyring: Keyring, context: string, envelope: Envelope): Buffer {
  const master = keyring.get(envelope.keyId);
  if (!master) throw new CustodyError(`Master key ${envelope.keyId} is not configured`);
  return decrypt(keyObjectOf(master), envelope.wrappedKey, wrapAad(context));
}

export function open(keyring: Keyring, context: string, envelope: Envelope): string {
  const dataKey = dataKeyObject(unwrap(keyring, context, envelope));
  return decrypt(dataKey, envelope.ciphertext, secretAad(context)).toString("utf8");
}

/** The same envelope with its data key wrapped by the current master key (the ciphertext is kept). */
export function rewrap(
  keyring: Keyring,
  context: string,
  envelope: Envelope,
  master = keyring.current,
): Envelope {
  const dataKey = unwrap(keyring, context, envelope);
  try {
    // Proves the data key still opens the secret before the old wrapping is thrown away.
    decrypt(createSecretKey(dataKey), envelope.ciphertext, secretAad(context));
    return {
      keyId: master.id,
      wrappedKey: encrypt(keyObjectOf(master), dataKey, wrapAad(context)),
      ciphertext: envelope.ciphertext,
    };
  } finally {
    dataKey.fill(0);
  }
}

// The one-column form of an envelope, for tables that keep a sealed value in a single text column
// (webhook secrets, KYC tokens, payment tokens, sandbox mails): `e1:<keyId>:<wrappedKey>:<ciphertext>`.
// Neither the key id (`mk_` + hex) nor the `v1.` + base64 parts can hold a colon.
const TEXT_PREFIX = "e1:";

export function isEnvelopeText(sealed: string): boolean {
  return sealed.startsWith(TEXT_PREFIX);
}

export function envelopeToText(envelope: Envelope): string {
  return `${TEXT_PREFIX}${envelope.keyId}:${envelope.wrappedKey}:${envelope.ciphertext}`;
}

export function envelopeFromText(sealed: string): Envelope {
  const parts = sealed.slice(TEXT_PREFIX.length).split(":");
  if (!isEnvelopeText(sealed) || parts.length !== 3) throw new CustodyError("Not a sealed envelope");
  const [keyId, wrappedKey, ciphertext] = parts;
  return { keyId, wrappedKey, ciphertext };
}
