import { type ChainsConfig, ConfigError } from "../../config.ts";
import type { Chain, ChainAdapter, Network } from "./adapter.ts";
import { EvmAdapter } from "./evm.ts";
import { NearAdapter } from "./near.ts";
import { SolanaAdapter } from "./solana.ts";
import { WaxAdapter } from "./wax.ts";

/**
 * The real adapter for a chain and network (CHAINS=real). A chain without an RPC URL fails only
 * when first used, naming the missing setting, so a deployment configures only the chains it uses.
 */
export function createRealAdapter(
  chain: Chain,
  network: Network,
  config: ChainsConfig,
  now: () => Date = () => new Date(),
): ChainAdapter {
  const settings = config.networks[chain][network];
  const rpcUrl = settings.rpcUrl;
  if (!rpcUrl) {
    throw new ConfigError(
      `${chain.toUpperCase()}_${network.toUpperCase()}_RPC_URL`,
      `required to use ${chain} ${network}`,
    );
  }
  switch (chain) {
    case "evm":
      return new EvmAdapter({
        network,
        rpcUrl,
        settings,
        resendAfterSeconds: config.evmResendAfterSeconds,
        now,
      });
    case "solana":
      return new SolanaAdapter({ network, rpcUrl, settings, now });
    case "near":
      return new NearAdapter({ network, rpcUrl, settings, now });
    case "wax":
      return new WaxAdapter({ network, rpcUrl, settings, now });
  }
}
