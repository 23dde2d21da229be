import type { ChainsConfig } from "../../config.ts";
import { type Chain, type ChainAdapter, ChainError, type Network } from "./adapter.ts";
import { SandboxChainAdapter, SandboxLedger } from "./sandbox.ts";

export type RealAdapterFactory = (chain: Chain, network: Network, config: ChainsConfig) => ChainAdapter;

export interface ChainRegistryOptions {
  now?: () => Date;
  /** Builds a real adapter (CHAINS=real); `createRealAdapter` in production, a fake in tests. */
  realAdapter?: RealAdapterFactory;
  /** Wraps each adapter once made (tracing: a span per call). */
  wrap?: (adapter: ChainAdapter, name: string) => ChainAdapter;
}

/** Chooses the adapter for a chain and network from the settings (CHAINS=sandbox|real). */
export class ChainRegistry {
  readonly config: ChainsConfig;
  /** The sandbox chains' shared state; tests use it to pick outcomes. */
  readonly sandbox: SandboxLedger;
  private readonly realAdapter: RealAdapterFactory | undefined;
  private readonly adapters = new Map<string, ChainAdapter>();
  private readonly wrap: (adapter: ChainAdapter, name: string) => ChainAdapter;

  constructor(config: ChainsConfig, options: ChainRegistryOptions = {}) {
    this.config = config;
    this.sandbox = new SandboxLedger(options.now);
    this.realAdapter = options.realAdapter;
    this.wrap = options.wrap ?? ((adapter) => adapter);
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
      adapter = this.wrap(adapter, `chain.${chain}.${network}`);
      this.adapters.set(key, adapter);
    }
    return adapter;
  }
}
