import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { slip10Ed25519 } from "../../src/modules/wallets/keys/near.ts";
import {
  isNearAccountId,
  isWaxAccount,
  normalizeAccount,
  normalizeEvmAddress,
} from "../../src/platform/chains/accounts.ts";

describe("NEAR seed phrases: SLIP-10 ed25519 derivation", () => {
  it("matches the SLIP-0010 test vector 1 for ed25519", () => {
    const seed = Buffer.from("000102030405060708090a0b0c0d0e0f", "hex");
    const vectors: [number[], string][] = [
      [[], "2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7"],
      [[0], "68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3"],
      [[0, 1], "b1d0bad404bf35da785a64ca1ac54b2617211d2777696fbffaf208f746ae84f2"],
      [[0, 1, 2], "92a5b23c0b8a99e37d07df3fb9966917f5d06e02ddbd909c7e184371463e9fc9"],
    ];
    for (const [path, key] of vectors)
      assert.equal(slip10Ed25519(seed, path).toString("hex"), key, path.join("/"));
  });
});

describe("account ids per chain", () => {
  it("EVM: checksummed or one-case addresses; a wrong checksum is refused", () => {
    const checksummed = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    assert.equal(normalizeEvmAddress(checksummed), checksummed);
    assert.equal(normalizeEvmAddress(checksummed.toLowerCase()), checksummed);
    assert.equal(normalizeEvmAddress(`0x${checksummed.slice(2).toUpperCase()}`), checksummed);
    assert.equal(normalizeEvmAddress("0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266"), undefined);
    assert.equal(normalizeEvmAddress("0x1234"), undefined);
  });

  it("NEAR: the account-id rules", () => {
    for (const ok of ["ab", "alice.near", "a-b_c.testnet", "0".repeat(64), "sub.app.near"]) {
      assert.ok(isNearAccountId(ok), ok);
    }
    for (const bad of ["a", "Alice.near", "a..b", "-a.near", "a-.near", ".a", "a.", "a".repeat(65), "a b"]) {
      assert.ok(!isNearAccountId(bad), bad);
    }
  });

  it("WAX: 1 to 12 characters of a-z, 1-5 and dot, not ending in a dot", () => {
    for (const ok of ["a", "eosio.token", "abcdefghij12", "shop.wam"]) assert.ok(isWaxAccount(ok), ok);
    for (const bad of ["", "abcdefghij123", "Shop", "shop6", "shop.", "shop-x"])
      assert.ok(!isWaxAccount(bad), bad);
  });

  it("Solana: base58 of 32 bytes", () => {
    assert.equal(
      normalizeAccount("solana", "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"),
      "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
    );
    assert.equal(normalizeAccount("solana", "0OIl"), undefined);
    assert.equal(normalizeAccount("solana", "11111111111111111111111111111111111111111111"), undefined);
  });
});
