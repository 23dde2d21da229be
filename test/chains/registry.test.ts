import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ConfigError, loadChainsConfig } from "../../src/config.ts";
import { EvmAdapter } from "../../src/platform/chains/evm.ts";
import { createChainRegistry } from "../../src/platform/chains/index.ts";
import { NearAdapter } from "../../src/platform/chains/near.ts";
import { SandboxChainAdapter } from "../../src/platform/chains/sandbox.ts";
import { SolanaAdapter } from "../../src/platform/chains/solana.ts";
import { WaxAdapter } from "../../src/platform/chains/wax.ts";
import { useTestApp } from "../helpers/fixture.ts";

describe("chain registry", () => {
  test("CHAINS=real picks each chain's adapter per network, once", async () => {
    const registry = await createChainRegistry(
      loadChainsConfig({
        CHAINS: "real",
        EVM_TESTNET_RPC_URL: "http://127.0.0.1:8545",
        SOLANA_MAINNET_RPC_URL: "http://127.0.0.1:8899",
        NEAR_TESTNET_RPC_URL: "http://127.0.0.1:3030",
        WAX_MAINNET_RPC_URL: "http://127.0.0.1:8888",
      }),
    );
    const evm = registry.adapter("evm", "testnet");
    assert.ok(evm instanceof EvmAdapter);
    assert.equal(evm.network, "testnet");
    assert.equal(registry.adapter("evm", "testnet"), evm);
    assert.ok(registry.adapter("solana", "mainnet") instanceof SolanaAdapter);
    assert.ok(registry.adapter("near", "testnet") instanceof NearAdapter);
    assert.ok(registry.adapter("wax", "mainnet") instanceof WaxAdapter);
    assert.equal(
      registry.adapter("solana", "mainnet").explorerUrl("abc"),
      "https://explorer.solana.com/tx/abc",
    );
  });

  test("a chain used without its RPC URL fails naming the setting", async () => {
    const registry = await createChainRegistry(loadChainsConfig({ CHAINS: "real" }));
    assert.throws(
      () => registry.adapter("near", "mainnet"),
      (e: unknown) => e instanceof ConfigError && e.setting === "NEAR_MAINNET_RPC_URL",
    );
  });
});

describe("the service's chains", () => {
  const fx = useTestApp({}, { tenants: false });

  test("default to the sandbox on the service's clock", async () => {
    const adapter = fx.app.deps.chains.adapter("evm", "mainnet");
    assert.ok(adapter instanceof SandboxChainAdapter);
    const sent = await adapter.send(
      {
        chain: "evm",
        to: "0x000000000000000000000000000000000000bEEF",
        data: "0x",
        value: 0n,
        gasLimit: 21_000n,
      },
      { privateKey: "0x01" },
    );
    assert.equal((await adapter.status(sent)).state, "pending");
  });
});
