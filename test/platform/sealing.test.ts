import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test } from "node:test";
import { Custody } from "../../src/platform/crypto/custody.ts";
import { envelopeFromText, envelopeToText } from "../../src/platform/crypto/envelope.ts";
import { Keyring, toMasterKey } from "../../src/platform/crypto/keyring.ts";
import { sealTheFormerWay } from "../helpers/legacy-seal.ts";

const custodyOf = (current: Buffer, ...previous: Buffer[]) =>
  new Custody(() => new Keyring(toMasterKey(current), previous.map(toMasterKey)));

test("a sealed text opens only with its key and under the row it was sealed for", () => {
  const key = randomBytes(32);
  const custody = custodyOf(key);
  const sealed = custody.sealText("wh_1", "whsec_abc");
  assert.ok(!sealed.includes("whsec_abc"));
  assert.notEqual(custody.sealText("wh_1", "whsec_abc"), sealed, "a fresh data key and nonce each time");
  assert.equal(custody.openText("wh_1", sealed), "whsec_abc");
  assert.throws(() => custody.openText("wh_2", sealed));
  assert.throws(() => custodyOf(randomBytes(32)).openText("wh_1", sealed));
  const envelope = envelopeFromText(sealed);
  const flipped = Buffer.from(envelope.ciphertext.slice(3), "base64");
  flipped[14] ^= 1;
  const tampered = envelopeToText({ ...envelope, ciphertext: `v1.${flipped.toString("base64")}` });
  assert.throws(() => custody.openText("wh_1", tampered));
});

test("a value sealed the former way (straight under the master key) still opens, under any key of the ring", () => {
  const former = randomBytes(32);
  const legacy = sealTheFormerWay(former, "whsec_old", "wh_1");
  assert.equal(custodyOf(former).openText("wh_1", legacy), "whsec_old");
  const rotated = custodyOf(randomBytes(32), former);
  assert.equal(rotated.openText("wh_1", legacy), "whsec_old");
  assert.throws(() => rotated.openText("wh_2", legacy), "bound to its row");
  assert.throws(() => custodyOf(randomBytes(32)).openText("wh_1", legacy), "not without the former key");
});

test("resealText moves former-way values and envelopes under an old key to the current key, and leaves current ones", () => {
  const former = randomBytes(32);
  const current = randomBytes(32);
  const rotated = custodyOf(current, former);
  const newOnly = custodyOf(current);

  const fromLegacy = rotated.resealText("wh_1", sealTheFormerWay(former, "whsec_old", "wh_1"));
  assert.ok(fromLegacy);
  assert.equal(envelopeFromText(fromLegacy).keyId, toMasterKey(current).id);
  assert.equal(newOnly.openText("wh_1", fromLegacy), "whsec_old");

  const underFormer = custodyOf(former).sealText("wh_1", "whsec_env");
  const rewrapped = rotated.resealText("wh_1", underFormer);
  assert.ok(rewrapped);
  assert.equal(
    envelopeFromText(rewrapped).ciphertext,
    envelopeFromText(underFormer).ciphertext,
    "ciphertext kept",
  );
  assert.equal(newOnly.openText("wh_1", rewrapped), "whsec_env");

  assert.equal(rotated.resealText("wh_1", rewrapped), undefined, "already under the current key");
  assert.throws(() => rotated.resealText("wh_1", "plain text"), /no known form/);
});
