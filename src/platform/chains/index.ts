import type { ChainsConfig } from "../../config.ts";
import type { ChainAdapter } from "./adapter.ts";
import { createRealAdapter } from "./real.ts";
import { ChainRegistry } from "./registry.ts";

/** The service's chain registry: sandbox or real adapters as CHAINS says, on the service's clock. */
export function createChainRegistry(
  config: ChainsConfig,
  now: () => Date = () => new Date(),
  wrap?: (adapter: ChainAdapter, name: string) => ChainAdapter,
): ChainRegistry {
  return new ChainRegistry(config, {
    now,
    wrap,
    realAdapter: (chain, network, settings) => createRealAdapter(chain, network, settings, now),
  });
}
