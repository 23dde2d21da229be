import { secureRandomBytes } from "./crypto/random.ts";

// Crockford base32: no I, L, O, U, so ids survive being read aloud or copied by hand.
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

let lastTime = 0;
let lastRandom: Uint8Array = new Uint8Array(10);

function encode(time: number, random: Uint8Array): string {
  let out = "";
  let t = time;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[t % 32] + out;
    t = Math.floor(t / 32);
  }
  // 80 random bits as 16 base32 characters.
  let bits = 0;
  let value = 0;
  for (const byte of random) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

function increment(random: Uint8Array): Uint8Array {
  const next = Uint8Array.from(random);
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i] < 255) {
      next[i]++;
      return next;
    }
    next[i] = 0;
  }
  return next;
}

/**
 * Opaque, time-sortable id with a type prefix (`app_01j…`): 48 bits of milliseconds then 80 bits
 * that are random, or the previous id's plus one within the same millisecond, so ids made by one
 * process sort in creation order.
 */
export function newId(prefix: string): string {
  const now = Date.now();
  if (now <= lastTime) {
    lastRandom = increment(lastRandom);
  } else {
    lastTime = now;
    lastRandom = secureRandomBytes(10);
  }
  return `${prefix}_${encode(lastTime, lastRandom)}`;
}

/** A random secret of `bytes` bytes, base64url, with a recognisable prefix. */
export function newSecret(prefix: string, bytes = 32): string {
  return `${prefix}${secureRandomBytes(bytes).toString("base64url")}`;
}
