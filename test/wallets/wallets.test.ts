// The wallet API (docs/wallets.md): managed wallets, whose key the service generates with the
// chain's SDK; list, read, update and delete; and its security (credentials, another tenant's
// wallets, ciphertexts bound to their wallet). Imported keys and refused requests:
// wallet-validation.test.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { KeyPair } from "@near-js/crypto";
import { base58 } from "@scure/base";
import { createKeyPairFromBytes, getAddressFromPublicKey } from "@solana/kit";
import { PrivateKey } from "@wharfkit/antelope";
import { eq } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { decryptWalletSecret } from "../../src/modules/wallets/secrets.ts";
import { wallets } from "../../src/modules/wallets/tables.ts";
import { checkRouteBasics } from "../helpers/contract.ts";
import type { Tenants } from "../helpers/fixture.ts";
import { assertProblem, expectStatus } from "../helpers/http.ts";
import { createWallet, type WalletTestApp } from "../helpers/wallets.ts";
import { useWalletApp } from "./wallet-fixtures.ts";

let w: WalletTestApp;
let f: Tenants;
useWalletApp((app, tenants) => {
  w = app;
  f = tenants;
});

function assertWalletShape(wallet: any, type: string) {
  assert.deepEqual(Object.keys(wallet).sort(), [
    "app",
    "balance",
    "balance_checked_at",
    "balance_currency",
    "balance_low",
    "balance_low_threshold",
    "created_at",
    "id",
    "magic_network",
    "managed",
    "name",
    "type",
    "updated_at",
    "wallet_data",
  ]);
  assert.equal(wallet.type, type);
  assert.deepEqual(Object.keys(wallet.wallet_data).sort(), ["evm", "near", "solana", "wax"]);
  for (const chain of ["near", "evm", "wax", "solana"]) {
    if (chain !== type) assert.equal(wallet.wallet_data[chain], null);
  }
  const own = wallet.wallet_data[type];
  assert.equal(own.private_key ?? null, null);
  assert.equal(own.phrase_or_key ?? null, null);
  assert.equal(typeof own.account_id, "string");
  assert.equal(wallet.app.id, f.app.id);
  assert.equal(wallet.magic_network, own.test_network ? "testnet" : "mainnet");
}

describe("managed wallets: the service generates the key with the chain's SDK", () => {
  it("evm: a checksummed address of the generated key", async () => {
    const wallet = await createWallet(w, f.owner.token, f.app.id, { type: "evm" });
    assertWalletShape(wallet, "evm");
    assert.equal(wallet.managed, true);
    const secret = await w.remember(wallet.id);
    assert.equal(privateKeyToAccount(secret as `0x${string}`).address, wallet.wallet_data.evm.account_id);
    assert.equal(wallet.wallet_data.evm.network_id, "11155111");
    assert.equal(wallet.wallet_data.evm.test_network, true);
  });

  it("solana: the base58 address of the generated key", async () => {
    const wallet = await createWallet(w, f.owner.token, f.app.id, { type: "solana" });
    assertWalletShape(wallet, "solana");
    const secret = await w.remember(wallet.id);
    const pair = await createKeyPairFromBytes(base58.decode(secret));
    assert.equal(await getAddressFromPublicKey(pair.publicKey), wallet.wallet_data.solana.account_id);
  });

  it("near: the implicit account is the hex of the generated public key", async () => {
    const wallet = await createWallet(w, f.owner.token, f.app.id, { type: "near" });
    assertWalletShape(wallet, "near");
    const secret = await w.remember(wallet.id);
    const pair = KeyPair.fromString(secret as `ed25519:${string}`);
    assert.equal(Buffer.from(pair.getPublicKey().data).toString("hex"), wallet.wallet_data.near.account_id);
  });

  it("wax: the named account with a generated K1 key", async () => {
    const wallet = await createWallet(w, f.owner.token, f.app.id, {
      type: "wax",
      wallet_data: { wax: { account: "shop.wam", test_network: false } },
    });
    assertWalletShape(wallet, "wax");
    assert.equal(wallet.wallet_data.wax.account_id, "shop.wam");
    assert.equal(wallet.wallet_data.wax.permission, "active");
    assert.equal(wallet.magic_network, "mainnet");
    const secret = await w.remember(wallet.id);
    assert.equal(PrivateKey.from(secret).toPublic().toString(), wallet.wallet_data.wax.public_key);
  });

  it("a WAX wallet must name its account", async () => {
    const answer = await w.call("POST", `/wallets/${f.app.id}`, {
      token: f.owner.token,
      body: { name: "W", type: "wax" },
    });
    const problem = assertProblem(answer, 400, "validation_failed");
    assert.equal(problem.errors[0].path, "/body/wallet_data/wax/account");
  });
});

describe("list, read, update, delete", () => {
  it("lists newest first with paging headers", async () => {
    const first = await createWallet(w, f.owner.token, f.app.id, { type: "evm", name: "A" });
    const second = await createWallet(w, f.owner.token, f.app.id, { type: "evm", name: "B" });
    const answer = await w.call("GET", `/wallets/${f.app.id}?page=1&limit=2`, { token: f.developer.token });
    const items = expectStatus(answer, 200);
    assert.deepEqual(
      items.map((x: any) => x.id),
      [second.id, first.id],
    );
    assert.ok(Number(answer.headers["x-total-count"]) >= 2);
    assert.match(String(answer.headers.link), /rel="next"/);
    for (const item of items) assertWalletShape(item, "evm");
  });

  it("a repeated POST with one Idempotency-Key creates one wallet, one key", async () => {
    const options = {
      token: f.owner.token,
      body: { name: "Once", type: "evm" },
      headers: { "idempotency-key": `wallet-${Date.now()}` },
    };
    const first = expectStatus(await w.call("POST", `/wallets/${f.app.id}`, options), 201);
    const again = expectStatus(await w.call("POST", `/wallets/${f.app.id}`, options), 201);
    await w.remember(first.id);
    assert.equal(again.id, first.id);
    assert.equal(again.wallet_data.evm.account_id, first.wallet_data.evm.account_id);
  });

  it("reads one wallet", async () => {
    const wallet = await createWallet(w, f.owner.token, f.app.id, { type: "solana" });
    await w.remember(wallet.id);
    const read = expectStatus(
      await w.call("GET", `/wallets/${f.app.id}/${wallet.id}`, { token: f.developer.token }),
      200,
    );
    // The embedded app answers the caller's own permissions, which differ between the two.
    assert.deepEqual({ ...read, app: read.app.id }, { ...wallet, app: wallet.app.id });
    assert.equal(read.app.permissions.can_delete, false);
  });

  it("renames, and replaces the key with imported material", async () => {
    const wallet = await createWallet(w, f.owner.token, f.app.id, { type: "evm" });
    await w.remember(wallet.id);
    const renamed = expectStatus(
      await w.call("PATCH", `/wallets/${f.app.id}/${wallet.id}`, {
        token: f.developer.token,
        body: { name: "Hot" },
      }),
      200,
    );
    assert.equal(renamed.name, "Hot");
    assert.equal(renamed.managed, true);
    const key = generatePrivateKey();
    w.secrets.add(key);
    const rekeyed = expectStatus(
      await w.call("PATCH", `/wallets/${f.app.id}/${wallet.id}`, {
        token: f.owner.token,
        body: { wallet_data: { evm: { private_key: key } } },
      }),
      200,
    );
    assert.equal(rekeyed.managed, false);
    assert.equal(rekeyed.wallet_data.evm.account_id, privateKeyToAccount(key).address);
    assert.equal((await decryptWalletSecret(w.t.deps, wallet.id)).secret, key);
  });

  it("patches a NEAR account (checked against the key) and a WAX account and key", async () => {
    const near = await createWallet(w, f.owner.token, f.app.id, { type: "near" });
    await w.remember(near.id);
    const named = await w.call("PATCH", `/wallets/${f.app.id}/${near.id}`, {
      token: f.owner.token,
      body: { wallet_data: { near: { account_id: "store.near" } } },
    });
    assert.equal(expectStatus(named, 200).wallet_data.near.account_id, "store.near");
    const foreign = Buffer.from(KeyPair.fromRandom("ed25519").getPublicKey().data).toString("hex");
    const refused = await w.call("PATCH", `/wallets/${f.app.id}/${near.id}`, {
      token: f.owner.token,
      body: { wallet_data: { near: { account_id: foreign } } },
    });
    assert.equal(
      assertProblem(refused, 400, "validation_failed").errors[0].path,
      "/body/wallet_data/near/account_id",
    );

    const wax = await createWallet(w, f.owner.token, f.app.id, {
      type: "wax",
      wallet_data: { wax: { account: "abc" } },
    });
    await w.remember(wax.id);
    const key = PrivateKey.generate("K1");
    w.secrets.add(key.toString());
    const moved = expectStatus(
      await w.call("PATCH", `/wallets/${f.app.id}/${wax.id}`, {
        token: f.owner.token,
        body: { wallet_data: { wax: { account: "abcd", private_key: key.toString() } } },
      }),
      200,
    );
    assert.equal(moved.wallet_data.wax.account_id, "abcd");
    assert.equal(moved.wallet_data.wax.public_key, key.toPublic().toString());
    const mismatch = await w.call("PATCH", `/wallets/${f.app.id}/${wax.id}`, {
      token: f.owner.token,
      body: { wallet_data: { wax: { public_key: PrivateKey.generate("K1").toPublic().toString() } } },
    });
    assert.equal(
      assertProblem(mismatch, 400, "validation_failed").errors[0].path,
      "/body/wallet_data/wax/public_key",
    );
  });

  it("a PATCH with another chain's fields or unknown fields is refused and changes nothing", async () => {
    const wallet = await createWallet(w, f.owner.token, f.app.id, { type: "evm", name: "Keep" });
    await w.remember(wallet.id);
    const chain = await w.call("PATCH", `/wallets/${f.app.id}/${wallet.id}`, {
      token: f.owner.token,
      body: { name: "Changed", wallet_data: { near: { account_id: "a.near" } } },
    });
    assert.equal(assertProblem(chain, 400, "validation_failed").errors[0].path, "/body/wallet_data/near");
    const unknown = await w.call("PATCH", `/wallets/${f.app.id}/${wallet.id}`, {
      token: f.owner.token,
      body: { name: "Changed", managed: false },
    });
    assert.equal(assertProblem(unknown, 400, "validation_failed").errors[0].path, "/body/managed");
    const read = expectStatus(
      await w.call("GET", `/wallets/${f.app.id}/${wallet.id}`, { token: f.owner.token }),
      200,
    );
    assert.equal(read.name, "Keep");
  });

  it("deletes a wallet", async () => {
    const wallet = await createWallet(w, f.owner.token, f.app.id, { type: "evm" });
    await w.remember(wallet.id);
    assert.equal(
      (await w.call("DELETE", `/wallets/${f.app.id}/${wallet.id}`, { token: f.developer.token })).status,
      204,
    );
    assertProblem(
      await w.call("GET", `/wallets/${f.app.id}/${wallet.id}`, { token: f.owner.token }),
      404,
      "not_found",
    );
    assertProblem(
      await w.call("DELETE", `/wallets/${f.app.id}/${wallet.id}`, { token: f.owner.token }),
      404,
      "not_found",
    );
  });
});

describe("security", () => {
  it("every route passes the API's contract checks (401s, malformed JSON, unknown fields, paging)", async () => {
    const wallet = await createWallet(w, f.owner.token, f.app.id, { type: "evm" });
    await w.remember(wallet.id);
    const token = f.owner.token;
    const one = `/wallets/${f.app.id}/${wallet.id}`;
    await checkRouteBasics(w.t, { method: "GET", url: `/wallets/${f.app.id}`, token, list: true });
    await checkRouteBasics(w.t, {
      method: "POST",
      url: `/wallets/${f.app.id}`,
      token,
      body: { name: "W", type: "evm" },
    });
    await checkRouteBasics(w.t, { method: "GET", url: one, token });
    await checkRouteBasics(w.t, { method: "PATCH", url: one, token, body: { name: "W" } });
    await checkRouteBasics(w.t, { method: "DELETE", url: one, token });
  });

  it("every route wants a credential", async () => {
    const wallet = await createWallet(w, f.owner.token, f.app.id, { type: "evm" });
    await w.remember(wallet.id);
    const routes: [string, string, unknown?][] = [
      ["GET", `/wallets/${f.app.id}`],
      ["POST", `/wallets/${f.app.id}`, { name: "W", type: "evm" }],
      ["GET", `/wallets/${f.app.id}/${wallet.id}`],
      ["PATCH", `/wallets/${f.app.id}/${wallet.id}`, { name: "X" }],
      ["DELETE", `/wallets/${f.app.id}/${wallet.id}`],
    ];
    for (const [method, url, body] of routes) {
      const answer = await w.call(method, url, { body });
      assertProblem(answer, 401, "unauthenticated");
      assert.ok(answer.headers["www-authenticate"]);
    }
  });

  it("an app's API key (Bearer or Basic) works on its own app only", async () => {
    const key = expectStatus(
      await w.call("POST", `/apps/${f.app.id}/api-keys`, { token: f.owner.token, body: { name: "ci" } }),
      201,
    ).key as string;
    const wallet = await createWallet(w, key, f.app.id, { type: "solana" });
    await w.remember(wallet.id);
    const basic = `Basic ${Buffer.from(`${key}:`).toString("base64")}`;
    const listed = await w.call("GET", `/wallets/${f.app.id}`, { headers: { authorization: basic } });
    assert.ok(expectStatus(listed, 200).some((x: any) => x.id === wallet.id));
    assertProblem(await w.call("GET", `/wallets/${f.otherApp.id}`, { token: key }), 404, "not_found");
  });

  it("another tenant's app and wallets are 404, and nothing changes", async () => {
    const wallet = await createWallet(w, f.owner.token, f.app.id, { type: "evm", name: "Mine" });
    await w.remember(wallet.id);
    const token = f.outsider.token;
    assertProblem(await w.call("GET", `/wallets/${f.app.id}`, { token }), 404, "not_found");
    assertProblem(
      await w.call("POST", `/wallets/${f.app.id}`, { token, body: { name: "W", type: "evm" } }),
      404,
      "not_found",
    );
    assertProblem(await w.call("GET", `/wallets/${f.app.id}/${wallet.id}`, { token }), 404, "not_found");
    assertProblem(
      await w.call("PATCH", `/wallets/${f.app.id}/${wallet.id}`, { token, body: { name: "Stolen" } }),
      404,
      "not_found",
    );
    assertProblem(await w.call("DELETE", `/wallets/${f.app.id}/${wallet.id}`, { token }), 404, "not_found");
    // The outsider's own app does not reach the wallet either.
    assertProblem(await w.call("GET", `/wallets/${f.otherApp.id}/${wallet.id}`, { token }), 404, "not_found");
    const read = expectStatus(
      await w.call("GET", `/wallets/${f.app.id}/${wallet.id}`, { token: f.owner.token }),
      200,
    );
    assert.equal(read.name, "Mine");
  });

  it("swapping two wallets' ciphertexts makes both fail to decrypt", async () => {
    const a = await createWallet(w, f.owner.token, f.app.id, { type: "evm" });
    const b = await createWallet(w, f.owner.token, f.app.id, { type: "evm" });
    await w.remember(a.id);
    await w.remember(b.id);
    const db = w.t.deps.db;
    const [rowA] = await db.select().from(wallets).where(eq(wallets.id, a.id));
    const [rowB] = await db.select().from(wallets).where(eq(wallets.id, b.id));
    const columns = (r: typeof rowA) => ({
      secretKeyId: r.secretKeyId,
      secretWrappedKey: r.secretWrappedKey,
      secretCiphertext: r.secretCiphertext,
    });
    await db.update(wallets).set(columns(rowB)).where(eq(wallets.id, a.id));
    await db.update(wallets).set(columns(rowA)).where(eq(wallets.id, b.id));
    await assert.rejects(decryptWalletSecret(w.t.deps, a.id), /could not be decrypted/);
    await assert.rejects(decryptWalletSecret(w.t.deps, b.id), /could not be decrypted/);
    // Only the ciphertext swapped (each keeps its own wrapped data key): still refused.
    await db
      .update(wallets)
      .set({ ...columns(rowA), secretCiphertext: rowB.secretCiphertext })
      .where(eq(wallets.id, a.id));
    await assert.rejects(decryptWalletSecret(w.t.deps, a.id), /could not be decrypted/);
    await db.update(wallets).set(columns(rowA)).where(eq(wallets.id, a.id));
    await db.update(wallets).set(columns(rowB)).where(eq(wallets.id, b.id));
    assert.match((await decryptWalletSecret(w.t.deps, a.id)).secret, /^0x[0-9a-f]{64}$/);
  });
});
