import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { KeyPair } from "@near-js/crypto";
import { base58 } from "@scure/base";
import { generateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import {
  createKeyPairFromBytes,
  createKeyPairFromPrivateKeyBytes,
  getAddressEncoder,
  getAddressFromPublicKey,
} from "@solana/kit";
import { PrivateKey } from "@wharfkit/antelope";
import { eq } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { decryptWalletSecret } from "../../src/modules/wallets/secrets.ts";
import { wallets } from "../../src/modules/wallets/tables.ts";
import { checkRouteBasics } from "../helpers/contract.ts";
import { assertProblem, expectStatus, tenantFixture } from "../helpers/http.ts";
import { buildWalletTestApp, createWallet, type WalletTestApp } from "../helpers/wallets.ts";

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

const ANVIL_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const ANVIL_ADDRESS = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

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

async function solanaKeyPair() {
  const seed = crypto.getRandomValues(new Uint8Array(32));
  const pair = await createKeyPairFromPrivateKeyBytes(seed);
  const address = await getAddressFromPublicKey(pair.publicKey);
  const full = new Uint8Array(64);
  full.set(seed);
  full.set(getAddressEncoder().encode(address), 32);
  return { address, secret: base58.encode(full), seed: base58.encode(seed), full };
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

describe("imported key material is checked against the account", () => {
  it("evm: the account is the key's address", async () => {
    w.secrets.add(ANVIL_KEY);
    const wallet = await createWallet(w, f.owner.token, f.app.id, {
      type: "evm",
      wallet_data: { evm: { private_key: ANVIL_KEY.slice(2), network_id: "1", test_network: false } },
    });
    assert.equal(wallet.managed, false);
    assert.equal(wallet.wallet_data.evm.account_id, ANVIL_ADDRESS);
    assert.equal(wallet.wallet_data.evm.network_id, "1");
    assert.equal((await decryptWalletSecret(w.t.deps, wallet.id)).secret, ANVIL_KEY);
  });

  it("solana: 64-byte secret, 32-byte seed and keygen JSON all give the key's address", async () => {
    const key = await solanaKeyPair();
    w.secrets.add(key.secret);
    w.secrets.add(key.seed);
    for (const private_key of [key.secret, key.seed, JSON.stringify([...key.full])]) {
      const wallet = await createWallet(w, f.owner.token, f.app.id, {
        type: "solana",
        wallet_data: { solana: { private_key } },
      });
      assert.equal(wallet.wallet_data.solana.account_id, key.address);
      assert.equal(wallet.managed, false);
    }
  });

  it("solana: a secret whose halves do not belong together is refused", async () => {
    const a = await solanaKeyPair();
    const b = await solanaKeyPair();
    const mixed = new Uint8Array(64);
    mixed.set(a.full.slice(0, 32));
    mixed.set(b.full.slice(32), 32);
    const private_key = base58.encode(mixed);
    w.secrets.add(private_key);
    const answer = await w.call("POST", `/wallets/${f.app.id}`, {
      token: f.owner.token,
      body: { name: "W", type: "solana", wallet_data: { solana: { private_key } } },
    });
    assert.equal(
      assertProblem(answer, 400, "validation_failed").errors[0].path,
      "/body/wallet_data/solana/private_key",
    );
  });

  it("near: a key with its implicit account, a named account, a seed phrase", async () => {
    const pair = KeyPair.fromRandom("ed25519");
    const implicit = Buffer.from(pair.getPublicKey().data).toString("hex");
    w.secrets.add(pair.toString());
    const own = await createWallet(w, f.owner.token, f.app.id, {
      type: "near",
      wallet_data: { near: { phrase_or_key: pair.toString(), account_id: implicit } },
    });
    assert.equal(own.wallet_data.near.account_id, implicit);
    const named = await createWallet(w, f.owner.token, f.app.id, {
      type: "near",
      wallet_data: { near: { phrase_or_key: pair.toString(), account_id: "shop-1.testnet" } },
    });
    assert.equal(named.wallet_data.near.account_id, "shop-1.testnet");

    const phrase = generateMnemonic(wordlist);
    w.secrets.add(phrase);
    const fromPhrase = await createWallet(w, f.owner.token, f.app.id, {
      type: "near",
      wallet_data: { near: { phrase_or_key: phrase } },
    });
    const secret = await w.remember(fromPhrase.id);
    const derived = KeyPair.fromString(secret as `ed25519:${string}`);
    assert.equal(
      Buffer.from(derived.getPublicKey().data).toString("hex"),
      fromPhrase.wallet_data.near.account_id,
    );
    const again = await createWallet(w, f.owner.token, f.app.id, {
      type: "near",
      wallet_data: { near: { phrase_or_key: phrase } },
    });
    assert.equal(
      again.wallet_data.near.account_id,
      fromPhrase.wallet_data.near.account_id,
      "derivation is stable",
    );
  });

  it("near: another key's implicit account, a malformed account or key are refused", async () => {
    const pair = KeyPair.fromRandom("ed25519");
    const other = Buffer.from(KeyPair.fromRandom("ed25519").getPublicKey().data).toString("hex");
    w.secrets.add(pair.toString());
    const cases: [Record<string, string>, string][] = [
      [{ phrase_or_key: pair.toString(), account_id: other }, "/body/wallet_data/near/account_id"],
      [{ phrase_or_key: pair.toString(), account_id: "Bad..Account" }, "/body/wallet_data/near/account_id"],
      [{ phrase_or_key: "ed25519:notakey" }, "/body/wallet_data/near/phrase_or_key"],
      [
        { phrase_or_key: "just some words that are not a phrase at all ok" },
        "/body/wallet_data/near/phrase_or_key",
      ],
      [{ account_id: "shop.testnet" }, "/body/wallet_data/near/phrase_or_key"],
    ];
    for (const [near, path] of cases) {
      const answer = await w.call("POST", `/wallets/${f.app.id}`, {
        token: f.owner.token,
        body: { name: "W", type: "near", wallet_data: { near } },
      });
      assert.equal(
        assertProblem(answer, 400, "validation_failed").errors[0].path,
        path,
        JSON.stringify(near),
      );
    }
  });

  it("wax: WIF key with its legacy public key; a wrong public key or account is refused", async () => {
    const key = PrivateKey.generate("K1");
    w.secrets.add(key.toWif());
    w.secrets.add(key.toString());
    const wallet = await createWallet(w, f.owner.token, f.app.id, {
      type: "wax",
      wallet_data: {
        wax: {
          account: "seller12345",
          private_key: key.toWif(),
          public_key: key.toPublic().toLegacyString(),
        },
      },
    });
    assert.equal(wallet.wallet_data.wax.public_key, key.toPublic().toString());
    assert.equal(wallet.managed, false);
    const otherPublic = PrivateKey.generate("K1").toPublic().toString();
    const cases: [Record<string, string>, string][] = [
      [
        { account: "seller12345", private_key: key.toWif(), public_key: otherPublic },
        "/body/wallet_data/wax/public_key",
      ],
      [{ account: "seller6", private_key: key.toWif() }, "/body/wallet_data/wax/account"],
      [{ account: "toolongaccount1" }, "/body/wallet_data/wax/account"],
      [{ account: "ends.", private_key: key.toWif() }, "/body/wallet_data/wax/account"],
      [{ account: "seller", private_key: "5Knotakey" }, "/body/wallet_data/wax/private_key"],
    ];
    for (const [wax, path] of cases) {
      const answer = await w.call("POST", `/wallets/${f.app.id}`, {
        token: f.owner.token,
        body: { name: "W", type: "wax", wallet_data: { wax } },
      });
      assert.equal(assertProblem(answer, 400, "validation_failed").errors[0].path, path, JSON.stringify(wax));
    }
  });

  it("evm: a malformed or out-of-range key is refused naming the field", async () => {
    for (const private_key of ["0x1234", "zz".repeat(32), `0x${"f".repeat(64)}`]) {
      const answer = await w.call("POST", `/wallets/${f.app.id}`, {
        token: f.owner.token,
        body: { name: "W", type: "evm", wallet_data: { evm: { private_key } } },
      });
      assert.equal(
        assertProblem(answer, 400, "validation_failed").errors[0].path,
        "/body/wallet_data/evm/private_key",
      );
    }
  });

  it("key material of another chain than the wallet's type is refused", async () => {
    const answer = await w.call("POST", `/wallets/${f.app.id}`, {
      token: f.owner.token,
      body: { name: "W", type: "evm", wallet_data: { solana: {} } },
    });
    assert.equal(assertProblem(answer, 400, "validation_failed").errors[0].path, "/body/wallet_data/solana");
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

describe("request validation", () => {
  it("unknown fields, wrong types, malformed JSON and bad page parameters are 400", async () => {
    const url = `/wallets/${f.app.id}`;
    const token = f.owner.token;
    const unknown = await w.call("POST", url, { token, body: { name: "W", type: "evm", extra: 1 } });
    assert.equal(assertProblem(unknown, 400, "validation_failed").errors[0].path, "/body/extra");
    const nested = await w.call("POST", url, {
      token,
      body: {
        name: "W",
        type: "evm",
        wallet_data: { evm: { private_key: ANVIL_KEY, account_id: ANVIL_ADDRESS } },
      },
    });
    assert.equal(
      assertProblem(nested, 400, "validation_failed").errors[0].path,
      "/body/wallet_data/evm/account_id",
    );
    assertProblem(
      await w.call("POST", url, { token, body: { name: "W", type: "bitcoin" } }),
      400,
      "validation_failed",
    );
    assertProblem(await w.call("POST", url, { token, body: { type: "evm" } }), 400, "validation_failed");
    assertProblem(await w.call("POST", url, { token, raw: "{not json" }), 400, "validation_failed");
    for (const query of ["page=0", "limit=0", "limit=101", "page=abc", "limit=2.5", "other=1"]) {
      const answer = await w.call("GET", `${url}?${query}`, { token });
      assertProblem(answer, 400, "validation_failed");
    }
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
