import type { ChainsConfig } from "../../config.ts";
import type { ChainAdapter } from "./adapter.ts";
import { ChainRegistry } from "./registry.ts";

/**
 * The service's chain registry: sandbox or real adapters as CHAINS says, on the service's clock.
 * The real adapters and their SDKs (viem, @solana/kit, @near-js, @wharfkit) are loaded only when
 * CHAINS=real: a sandbox process, every test among them, never needs them, and they are most of a
 * process's module loading (docs/benchmarks.md, "Chain SDKs loaded when first used").
 */
export async function createChainRegistry(
  config: ChainsConfig,
  now: () => Date = () => new Date(),
  wrap?: (adapter: ChainAdapter, name: string) => ChainAdapter,
): Promise<ChainRegistry> {
  if (config.mode !== "real") return new ChainRegistry(config, { now, wrap });
  const { createRealAdapter } = await import("./real.ts");
  return new ChainRegistry(config, {
    now,
    wrap,
    realAdapter: (chain, network, settings) => createRealAdapter(chain, network, settings, now),
  });
}
