import assert from "node:assert/strict";
import { test } from "node:test";
import { eq, sql } from "drizzle-orm";
import { resealEverything } from "../../src/master-key-rotation.ts";
import { KYC_ACTION_JOB } from "../../src/modules/kyc/jobs.ts";
import { createSealer } from "../../src/modules/kyc/sealing.ts";
import { openMailText, sandboxMailStore } from "../../src/modules/sandbox-inbox/store.ts";
import { sandboxMails } from "../../src/modules/sandbox-inbox/tables.ts";
import { creationContext } from "../../src/modules/solana/job-names.ts";
import { solanaCollections, solanaTrees } from "../../src/modules/solana/tables.ts";
import { envelopeOf } from "../../src/modules/wallets/secrets.ts";
import { Custody } from "../../src/platform/crypto/custody.ts";
import { Keyring, toMasterKey } from "../../src/platform/crypto/keyring.ts";
import { drizzleRunner } from "../../src/platform/db/index.ts";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, createApp, expectStatus, signup } from "../helpers/http.ts";
import { createKyc, postForm, RETURN_URL, SELLER_DETAILS } from "../helpers/kyc.ts";
import { compressionUrl } from "../helpers/solana-compression.ts";
import { newMasterKey } from "../helpers/wallets.ts";

const key = (base64: string) => toMasterKey(Buffer.from(base64, "base64"));
const oldKey = newMasterKey();
const newKey = newMasterKey();

let tenant: { owner: { token: string }; app: { id: string }; solanaWallet: string };

// The API without a worker, as an API-only process: what it creates waits in the queue until a
// worker runs, which here is after the rotation, with the new key only.
const fx = useTestApp(
  {
    SECRETS_MASTER_KEY: oldKey,
    RUN_WORKER: "false",
    SOLANA_TESTNET_CONFIRMATIONS: "1",
    SOLANA_TESTNET_BLOCK_SECONDS: "0.2",
  },
  {
    tenants: false,
    async setUp() {
      // An owner and an app only: with no worker no verification mail goes out, so no member could
      // accept an invitation here (tenantFixture's developer needs one).
      const owner = await signup(fx.app);
      const app = await createApp(fx.app, owner.token);
      const wallet = expectStatus(
        await call(fx.app, "POST", `/wallets/${app.id}`, {
          token: owner.token,
          body: { name: "solana wallet", type: "solana" },
        }),
        201,
      );
      tenant = { owner, app, solanaWallet: wallet.id as string };
    },
  },
);

test("queued KYC inputs and sandbox mails are re-sealed, and open under the new key alone", async () => {
  expectStatus(
    await call(fx.app, "PATCH", `/apps/${tenant.app.id}`, {
      token: tenant.owner.token,
      body: { kyc_return_url: RETURN_URL, type: "marketplace", app_fee: 2.5 },
    }),
    200,
  );
  const apiKey = expectStatus(
    await call(fx.app, "POST", `/apps/${tenant.app.id}/api-keys`, {
      token: tenant.owner.token,
      body: { name: "server" },
    }),
    201,
  ).key;
  const kyc = expectStatus(
    await createKyc(fx.app, tenant.app.id, apiKey, { identifier: "rotated-seller", account_type: "custom" }),
    201,
  ).data;
  // With no worker, the widget's input waits in its job, sealed under the old key.
  assert.equal((await postForm(fx.app, `/kyc/${kyc.edit_token}/details`, SELLER_DETAILS)).status, 303);
  await sandboxMailStore(fx.app.deps.db, fx.app.deps.custody).keep({
    to: "someone@example.com",
    subject: "Before the rotation",
    text: "inv_secret-before-rotation",
  });

  const counts = await resealEverything(fx.app.deps.db, new Keyring(key(newKey), [key(oldKey)]));
  assert.equal(counts.wallets, 1, "the fixture's wallet");
  assert.equal(counts.kycJobInputs, 1);
  assert.equal(counts.sandboxMails, 1);
  assert.equal(counts.kycTokens, 1);

  const newOnly = { custody: new Custody(() => new Keyring(key(newKey))) };
  const [job] = (await drizzleRunner(fx.app.deps.db)(
    sql`select data->>'kycId' as kyc_id, data->>'sealed' as sealed from pgboss.job where name = ${KYC_ACTION_JOB}`,
  )) as { kyc_id: string; sealed: string }[];
  assert.equal(job.kyc_id, kyc.id);
  assert.equal(JSON.parse(createSealer(newOnly).open(job.sealed, kyc.id)).action, "details");
  const [mail] = await fx.app.deps.db.select().from(sandboxMails);
  assert.equal(openMailText(newOnly.custody, mail), "inv_secret-before-rotation");
});

test("a tree and a collection pending across a master-key rotation complete under the new key alone", async () => {
  const trees = compressionUrl(tenant.app.id, tenant.solanaWallet, "trees");
  const collections = compressionUrl(tenant.app.id, tenant.solanaWallet, "collections");
  const tree = expectStatus(
    await call(fx.app, "POST", trees, {
      token: tenant.owner.token,
      body: { max_depth_size_pair: { max_depth: 14, max_buffer_size: 64 }, canopy_depth: 10 },
    }),
    201,
  );
  const collection = expectStatus(
    await call(fx.app, "POST", collections, {
      token: tenant.owner.token,
      body: { name: "Rotated", symbol: "ROT", uri: "https://example.com/rot.json" },
    }),
    201,
  );
  assert.equal(tree.status, "pending");
  assert.equal(collection.status, "pending");

  const newOnly = new Custody(() => new Keyring(key(newKey)));
  const [treeRow] = await fx.app.deps.db.select().from(solanaTrees).where(eq(solanaTrees.id, tree.id));
  // Before the re-wrap, the new key alone cannot open the tree's key: the send would fail forever.
  assert.throws(() => newOnly.open(creationContext("tree", tree.id), envelopeOf(treeRow)), /not configured/);

  const rotating = new Keyring(key(newKey), [key(oldKey)]);
  const counts = await resealEverything(fx.app.deps.db, rotating);
  assert.equal(counts.solanaAccounts, 2, "the tree's and the collection's account keys");
  assert.equal(counts.wallets, 0, "the wallets were re-wrapped by the rotation above");
  assert.equal((await resealEverything(fx.app.deps.db, rotating)).solanaAccounts, 0, "idempotent");
  for (const table of [solanaTrees, solanaCollections]) {
    const rows = await fx.app.deps.db.select({ keyId: table.secretKeyId }).from(table);
    assert.ok(rows.every((row) => row.keyId === key(newKey).id));
  }

  // The former key is gone (SECRETS_MASTER_KEY_PREVIOUS emptied); a worker starts with the new key.
  fx.app.deps.custody = newOnly;
  await fx.app.deps.jobs.start({ work: true });
  const confirmed = async (url: string, id: string) =>
    eventually(async () => {
      const list = expectStatus(await call(fx.app, "GET", url, { token: tenant.owner.token }), 200);
      const row = list.find((r: { id: string }) => r.id === id);
      assert.notEqual(row?.status, "failed", JSON.stringify(row));
      return row?.status === "confirmed" ? row : undefined;
    });
  const doneTree = await confirmed(trees, tree.id);
  const doneCollection = await confirmed(collections, collection.id);
  assert.equal(doneTree.address, tree.address, "the same account, opened under the new key");
  assert.equal(doneCollection.mint_address, collection.mint_address);
  assert.ok(
    !fx.app.logs.join("").includes("is not configured"),
    fx.app.logs
      .filter((l) => l.includes("is not configured"))
      .join("\n")
      .slice(0, 3000),
  );
});
