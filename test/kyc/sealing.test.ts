import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test } from "node:test";
import { createSealer } from "../../src/modules/kyc/sealing.ts";
import { Custody } from "../../src/platform/crypto/custody.ts";
import { envelopeFromText, envelopeToText } from "../../src/platform/crypto/envelope.ts";
import { Keyring, toMasterKey } from "../../src/platform/crypto/keyring.ts";

const config = (key: Buffer, previous: Buffer[] = []) => ({
  custody: new Custody(() => new Keyring(toMasterKey(key), previous.map(toMasterKey))),
});

test("sealed values open only under the same key and record, and fail when tampered with", () => {
  const sealer = createSealer(config(randomBytes(32)));
  const sealed = sealer.seal("kyc_et_secret-token", "kyc_1");
  assert.ok(!sealed.includes("secret-token"));
  assert.notEqual(sealer.seal("kyc_et_secret-token", "kyc_1"), sealed, "a fresh nonce each time");
  assert.equal(sealer.open(sealed, "kyc_1"), "kyc_et_secret-token");
  assert.throws(() => sealer.open(sealed, "kyc_2"), "a value copied onto another record does not open");
  assert.throws(() => createSealer(config(randomBytes(32))).open(sealed, "kyc_1"));
  const envelope = envelopeFromText(sealed);
  const tampered = {
    ...envelope,
    ciphertext: `v1.${Buffer.from("tampered-ciphertext-bytes").toString("base64")}`,
  };
  assert.throws(() => sealer.open(envelopeToText(tampered), "kyc_1"));
});

test("after a master-key rotation, values sealed under the former key still open", () => {
  const former = randomBytes(32);
  const sealed = createSealer(config(former)).seal("kyc_et_before-rotation", "kyc_1");
  const rotated = createSealer(config(randomBytes(32), [former]));
  assert.equal(rotated.open(sealed, "kyc_1"), "kyc_et_before-rotation");
  assert.throws(
    () => createSealer(config(randomBytes(32))).open(sealed, "kyc_1"),
    "not without the former key",
  );
});
