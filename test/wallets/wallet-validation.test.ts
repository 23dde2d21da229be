// What a wallet is created with is checked (docs/wallets.md): imported key material (EVM, Solana,
// NEAR key or seed phrase, WAX) must belong to the account it names, and a malformed request is
// refused; each refusal is a 400 naming the field. The wallet API itself: wallets.test.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { KeyPair } from "@near-js/crypto";
import { base58 } from "@scure/base";
import { generateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { createKeyPairFromPrivateKeyBytes, getAddressEncoder, getAddressFromPublicKey } from "@solana/kit";
import { PrivateKey } from "@wharfkit/antelope";
import { decryptWalletSecret } from "../../src/modules/wallets/secrets.ts";
import type { Tenants } from "../helpers/fixture.ts";
import { assertProblem } from "../helpers/http.ts";
import { createWallet, type WalletTestApp } from "../helpers/wallets.ts";
import { useWalletApp } from "./wallet-fixtures.ts";

let w: WalletTestApp;
let f: Tenants;
useWalletApp((app, tenants) => {
  w = app;
  f = tenants;
});

const ANVIL_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const ANVIL_ADDRESS = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

async function solanaKeyPair() {
  const seed = crypto.getRandomValues(new Uint8Array(32));
  const pair = await createKeyPairFromPrivateKeyBytes(seed);
  const address = await getAddressFromPublicKey(pair.publicKey);
  const full = new Uint8Array(64);
  full.set(seed);
  full.set(getAddressEncoder().encode(address), 32);
  return { address, secret: base58.encode(full), seed: base58.encode(seed), full };
}

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
