// The pooled random draws behind ids, tokens, data keys and IVs (src/platform/crypto/random.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { secureRandomBytes } from "../../src/platform/crypto/random.ts";

test("draws across several pool refills are all different and each its own buffer", () => {
  const seen = new Set<string>();
  const draws: Buffer[] = [];
  // 4 KiB a pool: 2,000 draws of 12 bytes cross it about six times.
  for (let i = 0; i < 2000; i++) {
    const draw = secureRandomBytes(12);
    assert.equal(draw.length, 12);
    draws.push(draw);
    seen.add(draw.toString("hex"));
  }
  assert.equal(seen.size, draws.length, "no draw repeats another");
  const copy = Buffer.from(draws[1]);
  draws[0].fill(0);
  assert.deepEqual(draws[1], copy, "zeroing one draw (as a data key is) leaves the others");
  assert.ok(
    draws.every((draw) => draw.buffer.byteLength === 12),
    "no draw shares its memory with the pool or another draw",
  );
});

test("a draw larger than the pool serves is still random and of its size", () => {
  const big = secureRandomBytes(4096);
  assert.equal(big.length, 4096);
  assert.notDeepEqual(big, Buffer.alloc(4096));
});
