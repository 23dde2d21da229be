import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { after, before, describe, test } from "node:test";
import * as viemChains from "viem/chains";
import { ConfigError, loadChainsConfig } from "../../src/config.ts";
import { ChainError, NETWORKS } from "../../src/platform/chains/adapter.ts";
import { EVM_EXPLORERS } from "../../src/platform/chains/evm-networks.ts";
import { reportEvmChainIds } from "../../src/platform/chains/evm-startup.ts";
import { createChainRegistry } from "../../src/platform/chains/index.ts";
import { ChainRegistry } from "../../src/platform/chains/registry.ts";
import { createLogger } from "../../src/platform/log.ts";
import { type Anvil, startAnvil } from "../helpers/chains.ts";

const KEY = { privateKey: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d" };
const CALL = {
  chain: "evm" as const,
  to: "0x000000000000000000000000000000000000bEEF" as const,
  data: "0x" as const,
  value: 0n,
  gasLimit: 21_000n,
};

describe("EVM networks are chain ids", () => {
  test("mainnet is Ethereum (1) and testnet Sepolia (11155111) unless EVM_<NET>_CHAIN_ID says otherwise", () => {
    const defaults = loadChainsConfig({}).networks.evm;
    assert.equal(defaults.mainnet.chainId, 1);
    assert.equal(defaults.testnet.chainId, 11_155_111);
    assert.equal(defaults.mainnet.explorerUrl, "https://etherscan.io/tx/{tx}");
    assert.equal(defaults.testnet.explorerUrl, "https://sepolia.etherscan.io/tx/{tx}");
    const polygon = loadChainsConfig({ EVM_MAINNET_CHAIN_ID: "137", EVM_TESTNET_CHAIN_ID: "84532" }).networks
      .evm;
    assert.equal(polygon.mainnet.chainId, 137);
    assert.equal(polygon.mainnet.explorerUrl, "https://polygonscan.com/tx/{tx}");
    assert.equal(polygon.testnet.explorerUrl, "https://sepolia.basescan.org/tx/{tx}");
  });

  test("a chain without a known explorer has no link; the setting gives one to any chain", () => {
    const local = loadChainsConfig({ EVM_TESTNET_CHAIN_ID: "31337" }).networks.evm.testnet;
    assert.equal(local.chainId, 31337);
    assert.equal(local.explorerUrl, null);
    const withLink = loadChainsConfig({
      EVM_TESTNET_CHAIN_ID: "31337",
      EVM_TESTNET_EXPLORER_URL: "http://localhost:5100/tx/{tx}",
    }).networks.evm.testnet;
    assert.equal(withLink.explorerUrl, "http://localhost:5100/tx/{tx}");
    const overridden = loadChainsConfig({ EVM_MAINNET_EXPLORER_URL: "https://eth.blockscout.com/tx/{tx}" });
    assert.equal(overridden.networks.evm.mainnet.explorerUrl, "https://eth.blockscout.com/tx/{tx}");
  });

  test("a chain id that is not a positive integer is refused at start-up, naming the setting", () => {
    for (const value of ["0", "-1", "abc", "1.5", "0x7a69", "9007199254740992"]) {
      assert.throws(
        () => loadChainsConfig({ EVM_TESTNET_CHAIN_ID: value }),
        (e: unknown) => e instanceof ConfigError && e.setting === "EVM_TESTNET_CHAIN_ID",
        value,
      );
    }
  });

  test("the explorer table is each chain's default explorer as viem's chain definitions list it", () => {
    const chains = Object.values(viemChains) as {
      id: number;
      blockExplorers?: { default: { url: string } };
    }[];
    for (const [id, { name, url }] of Object.entries(EVM_EXPLORERS)) {
      const chain = chains.find((c) => c.id === Number(id) && c.blockExplorers);
      assert.ok(chain, `viem knows chain ${id} (${name})`);
      assert.equal(url, `${chain.blockExplorers!.default.url}/tx/{tx}`, name);
    }
    assert.equal(EVM_EXPLORERS[31337], undefined, "a local chain has no explorer");
  });

  test("NEAR, WAX and Solana links stay those of their explorers", () => {
    const registry = new ChainRegistry(loadChainsConfig({}));
    const links = Object.fromEntries(
      (["near", "wax", "solana"] as const).flatMap((chain) =>
        NETWORKS.map((network) => [
          `${chain}:${network}`,
          registry.adapter(chain, network).explorerUrl("abc"),
        ]),
      ),
    );
    assert.deepEqual(links, {
      "near:mainnet": "https://nearblocks.io/txns/abc",
      "near:testnet": "https://testnet.nearblocks.io/txns/abc",
      "wax:mainnet": "https://waxblock.io/transaction/abc",
      "wax:testnet": "https://testnet.waxblock.io/transaction/abc",
      "solana:mainnet": "https://explorer.solana.com/tx/abc",
      "solana:testnet": "https://explorer.solana.com/tx/abc?cluster=devnet",
    });
  });

  test("the sandbox EVM refuses a wallet made for another chain id, as a real node's network would", async () => {
    const registry = new ChainRegistry(loadChainsConfig({ EVM_TESTNET_CHAIN_ID: "31337" }));
    const evm = registry.adapter("evm", "testnet");
    await assert.rejects(evm.sign(CALL, { ...KEY, networkId: "11155111" }), (error: unknown) => {
      assert.ok(error instanceof ChainError);
      assert.equal(error.code, "wrong_network");
      return true;
    });
    const sent = await evm.send(CALL, { ...KEY, networkId: "31337" });
    assert.equal(evm.explorerUrl(sent.transactionId), null, "no link for a local chain");
  });
});

describe("start-up report of the chain each EVM node serves", () => {
  let anvil: Anvil;
  before(async () => {
    anvil = await startAnvil();
  });
  after(async () => {
    await anvil?.stop();
  });

  function capture() {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(JSON.parse(chunk.toString()));
        callback();
      },
    });
    return { lines, logger: createLogger("info", sink) };
  }

  test("warns, naming the setting and both chain ids, when a node serves another chain; never logs the URL", async () => {
    const { lines, logger } = capture();
    const registry = await createChainRegistry(
      loadChainsConfig({
        CHAINS: "real",
        EVM_TESTNET_RPC_URL: anvil.url,
        EVM_TESTNET_CHAIN_ID: "31337",
        EVM_MAINNET_RPC_URL: anvil.url, // declared Ethereum (1), serves 31337
      }),
    );
    await reportEvmChainIds(registry, logger);
    const warn = lines.find((l) => l.level === 40);
    assert.ok(warn, JSON.stringify(lines));
    assert.equal(warn.setting, "EVM_MAINNET_RPC_URL");
    assert.equal(warn.expected_chain_id, 1);
    assert.equal(warn.served_chain_id, 31337);
    assert.match(
      String(warn.msg),
      /EVM_MAINNET_RPC_URL serves EVM chain 31337.*chain 1 \(EVM_MAINNET_CHAIN_ID\)/,
    );
    const fine = lines.find((l) => l.setting === "EVM_TESTNET_RPC_URL");
    assert.equal(fine?.level, 30, "the matching node is an info line");
    assert.equal(lines.filter((l) => l.level === 40).length, 1);
    assert.ok(
      !JSON.stringify(lines).includes(anvil.url),
      "the RPC URL (it may hold an API key) is not logged",
    );
  });

  test("a node that cannot be reached is a warning, not a failure to start", async () => {
    const { lines, logger } = capture();
    const registry = await createChainRegistry(
      loadChainsConfig({ CHAINS: "real", EVM_TESTNET_RPC_URL: "http://127.0.0.1:9" }),
    );
    await reportEvmChainIds(registry, logger);
    assert.equal(lines.length, 1);
    assert.equal(lines[0].level, 40);
    assert.equal(lines[0].setting, "EVM_TESTNET_RPC_URL");
    assert.match(String(lines[0].msg), /could not ask the node/);
  });

  test("sandbox chains ask no node", async () => {
    const { lines, logger } = capture();
    await reportEvmChainIds(new ChainRegistry(loadChainsConfig({ EVM_TESTNET_RPC_URL: anvil.url })), logger);
    assert.deepEqual(lines, []);
  });
});
