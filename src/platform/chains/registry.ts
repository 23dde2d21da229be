import type { ChainsConfig } from "../../config.ts";
import { type Chain, type ChainAdapter, ChainError, type Network } from "./adapter.ts";
import { SandboxChainAdapter, SandboxLedger } from "./sandbox.ts";

export type RealAdapterFactory = (chain: Chain, network: Network, config: ChainsConfig) => ChainAdapter;

export interface ChainRegistryOptions {
  now?: () => Date;
  /** Builds a real adapter (CHAINS=real); `createRealAdapter` in production, a fake in tests. */
  realAdapter?: RealAdapterFactory;
}

/** Chooses the adapter for a chain and network from the settings (CHAINS=sandbox|real). */
export class ChainRegistry {
  readonly config: ChainsConfig;
  /** The sandbox chains' shared state; tests use it to pick outcomes. */
  readonly sandbox: SandboxLedger;
  private readonly realAdapter: RealAdapterFactory | undefined;
  private readonly adapters = new Map<string, ChainAdapter>();

  constructor(config: ChainsConfig, options: ChainRegistryOptions = {}) {
    this.config = config;
    this.sandbox = new SandboxLedger(options.now);
    this.realAdapter = options.realAdapter;
  }

  adapter(chain: Chain, network: Network): ChainAdapter {
    const key = `${chain}:${network}`;
    let adapter = this.adapters.get(key);
    if (!adapter) {
      if (this.config.mode === "sandbox") {
        adapter = new SandboxChainAdapter(chain, network, this.config.networks[chain][network], this.sandbox);
      } else if (this.realAdapter) {
        adapter = this.realAdapter(chain, network, this.config);
      } else {
        throw new ChainError("no_real_adapter", "CHAINS=real needs a real adapter factory");
      }
      this.adapters.set(key, adapter);
    }
    return adapter;
  }
}
