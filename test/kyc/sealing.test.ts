import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test } from "node:test";
import { createSealer } from "../../src/modules/kyc/sealing.ts";

const config = (key: Buffer) => ({ masterKey: key, dataDir: "/nonexistent" });

test("sealed values open only under the same key and record, and fail when tampered with", () => {
  const sealer = createSealer(config(randomBytes(32)));
  const sealed = sealer.seal("kyc_et_secret-token", "kyc_1");
  assert.ok(!sealed.includes("secret-token"));
  assert.notEqual(sealer.seal("kyc_et_secret-token", "kyc_1"), sealed, "a fresh nonce each time");
  assert.equal(sealer.open(sealed, "kyc_1"), "kyc_et_secret-token");
  assert.throws(() => sealer.open(sealed, "kyc_2"), "a value copied onto another record does not open");
  assert.throws(() => createSealer(config(randomBytes(32))).open(sealed, "kyc_1"));
  const parts = sealed.split(".");
  parts[3] = Buffer.from("tampered").toString("base64url");
  assert.throws(() => sealer.open(parts.join("."), "kyc_1"));
});
