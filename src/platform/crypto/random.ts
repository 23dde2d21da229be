import { randomBytes, randomFillSync } from "node:crypto";

/*
 * Small random draws from a pool the operating system's generator fills 4 KiB at a time, as
 * Node's own `randomUUID` keeps a cache of random bytes. `randomBytes` starts a native job per
 * call: about 1.5 µs of CPU for 10 bytes against 0.3 to 0.6 µs from the pool (`npm run
 * bench:sealing`, docs/benchmarks.md "Sealing, ids and hooks"), and a payment create draws six
 * times (request id, payment id, token, data key, two IVs). The bytes are the same CSPRNG output
 * either way; each is handed out once and zeroed in the pool as it leaves, so no secret stays
 * behind in it.
 */

const POOL_BYTES = 4096;
/** Draws larger than this go to `randomBytes` directly: the pool is for the many small ones. */
const LARGEST_DRAW = 64;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

/** `size` cryptographically secure random bytes, in a buffer of their own. */
export function secureRandomBytes(size: number): Buffer {
  if (size > LARGEST_DRAW) return randomBytes(size);
  if (offset + size > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const out = Buffer.allocUnsafeSlow(size);
  pool.copy(out, 0, offset, offset + size);
  pool.fill(0, offset, offset + size);
  offset += size;
  return out;
}
