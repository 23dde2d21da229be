import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { apps } from "../../src/modules/apps/tables.ts";
import { creationContext } from "../../src/modules/solana/job-names.ts";
import { solanaTrees } from "../../src/modules/solana/tables.ts";
import { users } from "../../src/modules/users/tables.ts";
import {
  decryptWalletSecret,
  envelopeOf,
  rewrapWalletSecrets,
  walletContext,
} from "../../src/modules/wallets/secrets.ts";
import { wallets } from "../../src/modules/wallets/tables.ts";
import { webhookEndpoints } from "../../src/modules/webhooks/tables.ts";
import { Custody, createCustody } from "../../src/platform/crypto/custody.ts";
import { open, seal } from "../../src/platform/crypto/envelope.ts";
import {
  Keyring,
  keyFilePath,
  keyringFromFile,
  PREVIOUS_KEYS_FILE,
  rotateKeyFile,
  toMasterKey,
} from "../../src/platform/crypto/keyring.ts";
import { migrateDatabase, openDatabase } from "../../src/platform/db/index.ts";
import { expectStatus, tenantFixture } from "../helpers/http.ts";
import { sealTheFormerWay } from "../helpers/legacy-seal.ts";
import { buildWalletTestApp, createWallet, newMasterKey, type WalletTestApp } from "../helpers/wallets.ts";

const run = promisify(execFile);
const key = (base64: string) => toMasterKey(Buffer.from(base64, "base64"));
const ring = (...keys: string[]) => new Keyring(key(keys[0]), keys.slice(1).map(key));

describe("envelope encryption", () => {
  const keyring = ring(newMasterKey());

  it("opens what it sealed, under the same context only", () => {
    const envelope = seal(keyring, "wallet:a", "secret text");
    assert.equal(open(keyring, "wallet:a", envelope), "secret text");
    assert.throws(() => open(keyring, "wallet:b", envelope), /could not be decrypted/);
    assert.ok(!envelope.ciphertext.includes("secret"));
  });

  it("a fresh data key and IV every time: sealing twice gives different envelopes", () => {
    const a = seal(keyring, "wallet:a", "same");
    const b = seal(keyring, "wallet:a", "same");
    assert.notEqual(a.ciphertext, b.ciphertext);
    assert.notEqual(a.wrappedKey, b.wrappedKey);
  });

  it("a flipped bit or an unknown master key is refused", () => {
    const envelope = seal(keyring, "wallet:a", "secret");
    const raw = Buffer.from(envelope.ciphertext.slice(3), "base64");
    raw[raw.length - 20] ^= 1;
    const tampered = { ...envelope, ciphertext: `v1.${raw.toString("base64")}` };
    assert.throws(() => open(keyring, "wallet:a", tampered), /could not be decrypted/);
    assert.throws(() => open(ring(newMasterKey()), "wallet:a", envelope), /not configured/);
  });
});

describe("master key settings", () => {
  it("SECRETS_MASTER_KEY must be base64 of 32 bytes, and the error names the setting", () => {
    for (const [name, value] of [
      ["SECRETS_MASTER_KEY", "c2hvcnQ="],
      ["SECRETS_MASTER_KEY", "not base64!"],
      ["SECRETS_MASTER_KEY_PREVIOUS", `${newMasterKey()},abc`],
    ]) {
      assert.throws(
        () => loadConfig({ SECRETS_MASTER_KEY: newMasterKey(), [name]: value }),
        (error) => error instanceof ConfigError && error.setting === name,
      );
    }
    const current = newMasterKey();
    const config = loadConfig({
      SECRETS_MASTER_KEY: current,
      SECRETS_MASTER_KEY_PREVIOUS: `${newMasterKey()}, ${newMasterKey()}`,
    });
    assert.deepEqual(config.masterKey, Buffer.from(current, "base64"));
    assert.equal(config.masterKeyPrevious.length, 2);
  });

  it("the embedded default makes an owner-only key file, keeps it, and refuses a readable one", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "keys-"));
    try {
      const first = keyringFromFile(dir);
      assert.equal(statSync(keyFilePath(dir)).mode & 0o777, 0o600);
      assert.equal(keyringFromFile(dir).current.id, first.current.id);
      const rotated = rotateKeyFile(dir);
      assert.notEqual(rotated.current.id, first.current.id);
      assert.ok(rotated.get(first.current.id), "the former key still unwraps");
      assert.equal(readFileSync(keyFilePath(dir), "utf8").trim().split("\n").length, 1);
      const previousFile = path.join(dir, PREVIOUS_KEYS_FILE);
      assert.equal(readFileSync(previousFile, "utf8").trim().split("\n").length, 1);
      assert.equal(statSync(previousFile).mode & 0o777, 0o600);
      // The service's custody, built from the settings, reads the same file: the same current key.
      assert.deepEqual(
        createCustody({ dataDir: dir, masterKey: undefined, masterKeyPrevious: [] }).keyring.current.key,
        rotated.current.key,
      );
      chmodSync(keyFilePath(dir), 0o644);
      assert.throws(() => keyringFromFile(dir), /owner only/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("rotation keeps every wallet usable", () => {
  let w: WalletTestApp;
  let f: Awaited<ReturnType<typeof tenantFixture>>;
  before(async () => {
    w = await buildWalletTestApp();
    f = await tenantFixture(w.t);
  });
  after(async () => {
    w.assertNoLeak();
    await w.t.close();
  });

  it("re-wraps every data key under the new key; the API keeps working on the new keyring", async () => {
    const created = [];
    for (const body of [
      { type: "evm" },
      { type: "solana" },
      { type: "near" },
      { type: "wax", wallet_data: { wax: { account: "rotate.wam" } } },
    ]) {
      const wallet = await createWallet(w, f.owner.token, f.app.id, body);
      created.push({ id: wallet.id, secret: await w.remember(wallet.id) });
    }
    const oldKey = w.masterKey;
    const newKey = newMasterKey();
    const rotating = new Custody(() => ring(newKey, oldKey));
    const result = await rewrapWalletSecrets({ db: w.t.deps.db, custody: rotating }, 3);
    assert.equal(result.rewrapped, created.length);
    assert.equal(
      (await rewrapWalletSecrets({ db: w.t.deps.db, custody: rotating })).rewrapped,
      0,
      "idempotent",
    );

    const newOnly = { db: w.t.deps.db, custody: new Custody(() => ring(newKey)) };
    const oldOnly = { db: w.t.deps.db, custody: new Custody(() => ring(oldKey)) };
    for (const { id, secret } of created) {
      assert.equal((await decryptWalletSecret(newOnly, id)).secret, secret);
      await assert.rejects(decryptWalletSecret(oldOnly, id));
    }

    // The running service switched to the new keyring: reads, new wallets and re-keying work.
    w.t.deps.custody = newOnly.custody;
    expectStatus(await w.call("GET", `/wallets/${f.app.id}/${created[0].id}`, { token: f.owner.token }), 200);
    const fresh = await createWallet(w, f.owner.token, f.app.id, { type: "evm" });
    await w.remember(fresh.id);
    const rows = await w.t.deps.db.select({ keyId: wallets.secretKeyId }).from(wallets);
    assert.ok(rows.every((r) => r.keyId === key(newKey).id));
  });
});

describe("npm run rotate-master-key on the embedded database", () => {
  // A guard against a hang, not a speed check: the command migrates an embedded database from
  // scratch in a process of its own, which took 56 s on a loaded 2-core machine and over 120 s
  // beside the PostgreSQL pass's other lanes.
  it("puts a new key in the key file and re-wraps every wallet under it", { timeout: 300_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "rotate-"));
    try {
      const custody = new Custody(() => keyringFromFile(dir));
      const oldId = custody.keyring.current.id;
      let database = await openDatabase({ dataDir: dir });
      await migrateDatabase(database);
      const secrets = new Map<string, string>();

      await database.db.insert(users).values({
        id: "usr_1",
        email: "a@example.com",
        username: "a",
        firstName: "A",
        lastName: "B",
        passwordHash: "x",
      } as typeof users.$inferInsert);
      await database.db.insert(apps).values({ id: "app_1", name: "A", createdBy: "usr_1" });
      for (const id of ["wal_1", "wal_2"]) {
        const secret = `0x${id.padEnd(64, "0").replace(/[^0-9a-f]/g, "1")}`;
        secrets.set(id, secret);
        await database.db.insert(wallets).values({
          id,
          appId: "app_1",
          name: id,
          type: "evm",
          managed: true,
          networkId: "1",
          testNetwork: true,
          accountId: "0x0000000000000000000000000000000000000001",
          ...(() => {
            const e = custody.seal(walletContext(id), secret);
            return { secretKeyId: e.keyId, secretWrappedKey: e.wrappedKey, secretCiphertext: e.ciphertext };
          })(),
        });
      }
      const treeKey = custody.seal(creationContext("tree", "tree_1"), "tree account secret");
      await database.db.insert(solanaTrees).values({
        id: "tree_1",
        appId: "app_1",
        walletId: "wal_1",
        network: "testnet",
        address: "11111111111111111111111111111111",
        maxDepth: 14,
        maxBufferSize: 64,
        canopyDepth: 0,
        accountSize: 1,
        rentLamports: 1n,
        secretKeyId: treeKey.keyId,
        secretWrappedKey: treeKey.wrappedKey,
        secretCiphertext: treeKey.ciphertext,
      });
      await database.db.insert(webhookEndpoints).values({
        id: "whe_1",
        appId: "app_1",
        url: "https://example.com/hook",
        events: ["payment.*"],
        // Sealed the former way (straight under the master key): the rotation moves them to envelopes.
        secretSealed: sealTheFormerWay(custody.keyring.current.key, "whsec_one", "whe_1"),
        previousSecretSealed: sealTheFormerWay(custody.keyring.current.key, "whsec_zero", "whe_1:previous"),
      });
      await database.close();

      const { stdout } = await run(process.execPath, ["scripts/rotate-master-key.ts"], {
        env: { PATH: process.env.PATH, DATA_DIR: dir },
      });
      assert.match(
        stdout,
        /Re-wrapped 2 wallet secret\(s\) and 1 Solana tree\/collection key\(s\); re-sealed 2 webhook secret/,
      );

      const rotated = keyringFromFile(dir);
      assert.notEqual(rotated.current.id, oldId);
      database = await openDatabase({ dataDir: dir });
      try {
        const newOnly = { db: database.db, custody: new Custody(() => new Keyring(rotated.current)) };
        for (const [id, secret] of secrets)
          assert.equal((await decryptWalletSecret(newOnly, id)).secret, secret);
        const [tree] = await database.db.select().from(solanaTrees);
        assert.equal(
          newOnly.custody.open(creationContext("tree", "tree_1"), envelopeOf(tree)),
          "tree account secret",
        );
        const [endpoint] = await database.db.select().from(webhookEndpoints);
        assert.equal(newOnly.custody.openText("whe_1", endpoint.secretSealed), "whsec_one");
        assert.equal(
          newOnly.custody.openText("whe_1:previous", endpoint.previousSecretSealed!),
          "whsec_zero",
        );
      } finally {
        await database.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
