import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test } from "node:test";
import { seal, unseal } from "../../src/platform/crypto/sealed.ts";

test("a sealed secret opens only with its key and under the row it was sealed for", () => {
  const key = randomBytes(32);
  const sealed = seal(key, "whsec_abc", "wh_1");
  assert.ok(!sealed.includes("whsec_abc"));
  assert.notEqual(seal(key, "whsec_abc", "wh_1"), sealed, "a fresh nonce each time");
  assert.equal(unseal(key, sealed, "wh_1"), "whsec_abc");
  assert.throws(() => unseal(key, sealed, "wh_2"));
  assert.throws(() => unseal(randomBytes(32), sealed, "wh_1"));
  const [v, iv, tag, body] = sealed.split(".");
  const flipped = Buffer.from(body, "base64url");
  flipped[0] ^= 1;
  assert.throws(() => unseal(key, [v, iv, tag, flipped.toString("base64url")].join("."), "wh_1"));
});
