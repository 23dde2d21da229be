import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { loadConfig } from "../../src/config.ts";
import { createSealer } from "../../src/modules/kyc/sealing.ts";

test("sealed values open only under the same key and fail when tampered with", () => {
  const sealer = createSealer(loadConfig({ KYC_SECRET: "one secret" }));
  const sealed = sealer.seal("kyc_et_secret-token");
  assert.ok(!sealed.includes("secret-token"));
  assert.notEqual(sealer.seal("kyc_et_secret-token"), sealed, "a fresh IV each time");
  assert.equal(sealer.open(sealed), "kyc_et_secret-token");
  assert.throws(() => createSealer(loadConfig({ KYC_SECRET: "another secret" })).open(sealed));
  const parts = sealed.split(".");
  parts[2] = Buffer.from("tampered").toString("base64url");
  assert.throws(() => sealer.open(parts.join(".")));
});

test("without KYC_SECRET a key file is made once in the data directory, owner-only", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "kyc-key-"));
  try {
    const config = loadConfig({ DATA_DIR: dir });
    const sealed = createSealer(config).seal("value");
    const file = path.join(dir, "kyc-secret.key");
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(createSealer(config).open(sealed), "value", "a restart reads the same key");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
