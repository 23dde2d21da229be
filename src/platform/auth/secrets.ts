import { hash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

// scrypt at N=2^cost, r=8, p=1. The default cost 15 is OWASP's minimum for r=8 (N=2^17 is its
// recommendation): about 40 ms and 32 MiB a hash on this class of machine, which bounds login abuse
// without making sign-up slow. Each hash stores its parameters, so PASSWORD_HASH_COST can be
// raised (or, for tests only, lowered) at any time: older hashes keep verifying at their own cost,
// and a password set from then on is hashed at the new one (docs/accounts.md, "Password hashing").
export const DEFAULT_PASSWORD_HASH_COST = 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

/** scrypt needs 128 * r * N bytes; its default ceiling (32 MiB) is just below cost 15's need. */
function maxmem(n: number, r: number): number {
  return 2 * 128 * r * n;
}

export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16);
  const n = 2 ** cost;
  const key = await scryptAsync(password.normalize("NFKC"), salt, KEY_LENGTH, {
    N: n,
    r: R,
    p: P,
    maxmem: maxmem(n, R),
  });
  return `scrypt$${n}$${R}$${P}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !key) return false;
  const expected = Buffer.from(key, "base64url");
  const actual = await scryptAsync(
    password.normalize("NFKC"),
    Buffer.from(salt, "base64url"),
    expected.length,
    {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: maxmem(Number(n), Number(r)),
    },
  );
  return timingSafeEqual(actual, expected);
}

/**
 * A hash at `cost` that no password matches: an unknown email is checked against it, so its answer
 * takes as long as a known one's.
 */
export function dummyPasswordHash(cost: number): string {
  return `scrypt$${2 ** cost}$${R}$${P}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
}

/**
 * Tokens and API keys are 256-bit random strings, so a fast hash is enough to store them: it
 * cannot be reversed or brute-forced, and looking the hash up leaks nothing about the token.
 */
export function hashToken(token: string): string {
  // The one-shot form: every request hashes its credential, and a Hash object costs twice the time.
  return hash("sha256", token, "base64url");
}
