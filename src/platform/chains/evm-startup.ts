import type { Logger } from "pino";
import { ChainError, NETWORKS } from "./adapter.ts";
import { chainIdSetting, rpcUrlSetting, wrongChainMessage } from "./evm-networks.ts";
import type { ChainRegistry } from "./registry.ts";

/**
 * At start-up, asks each configured EVM node which chain it serves and warns when it is not the
 * network's chain id, so an operator learns of a wrong endpoint before a payment is refused for it.
 * It only reports: the refusal itself happens at first use (`EvmAdapter.sign`), whatever this
 * found, and a node that cannot be reached now is asked again then. The RPC URL is never logged
 * (providers put API keys in it); the setting's name is.
 */
export async function reportEvmChainIds(registry: ChainRegistry, logger: Logger): Promise<void> {
  if (registry.config.mode !== "real") return;
  // Loaded here, not at the top: only a process with real chains needs viem (index.ts says why).
  const { EvmAdapter } = await import("./evm.ts");
  await Promise.all(
    NETWORKS.filter((network) => registry.config.networks.evm[network].rpcUrl).map(async (network) => {
      const adapter = registry.adapter("evm", network);
      if (!(adapter instanceof EvmAdapter)) return;
      const fields = { setting: rpcUrlSetting(network), expected_chain_id: adapter.chainId };
      try {
        const served = await adapter.servedChainId();
        if (served === adapter.chainId) {
          logger.info(
            { ...fields, served_chain_id: served },
            `EVM ${network}: the node serves chain ${served}`,
          );
        } else {
          logger.warn(
            { ...fields, served_chain_id: served },
            `${wrongChainMessage(network, adapter.chainId, served)}: its payments' contract calls will be refused until one of them changes`,
          );
        }
      } catch (error) {
        const reason = error instanceof ChainError ? error.message : String(error);
        logger.warn(
          { ...fields, chain_id_setting: chainIdSetting(network) },
          `EVM ${network}: could not ask the node at ${fields.setting} its chain id (${reason}); it is asked again before the first signature`,
        );
      }
    }),
  );
}
