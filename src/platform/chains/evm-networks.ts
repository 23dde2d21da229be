import { ChainError, type Network } from "./adapter.ts";

/**
 * The EVM chains whose explorer the service knows, by chain id (EIP-155). A network's
 * `EVM_<NET>_EXPLORER_URL` wins over this table; a chain in neither (anvil's 31337, a private
 * chain) gets no link. Each URL is the chain's default explorer as viem's chain definitions list it
 * (a test holds the table to them), with its transaction path.
 */
export const EVM_EXPLORERS: Readonly<Record<number, { name: string; url: string }>> = Object.freeze({
  1: { name: "Ethereum", url: "https://etherscan.io/tx/{tx}" },
  11155111: { name: "Sepolia", url: "https://sepolia.etherscan.io/tx/{tx}" },
  17000: { name: "Holesky", url: "https://holesky.etherscan.io/tx/{tx}" },
  560048: { name: "Hoodi", url: "https://hoodi.etherscan.io/tx/{tx}" },
  137: { name: "Polygon", url: "https://polygonscan.com/tx/{tx}" },
  80002: { name: "Polygon Amoy", url: "https://amoy.polygonscan.com/tx/{tx}" },
  8453: { name: "Base", url: "https://basescan.org/tx/{tx}" },
  84532: { name: "Base Sepolia", url: "https://sepolia.basescan.org/tx/{tx}" },
  42161: { name: "Arbitrum One", url: "https://arbiscan.io/tx/{tx}" },
  421614: { name: "Arbitrum Sepolia", url: "https://sepolia.arbiscan.io/tx/{tx}" },
  10: { name: "OP Mainnet", url: "https://optimistic.etherscan.io/tx/{tx}" },
  11155420: { name: "OP Sepolia", url: "https://optimism-sepolia.blockscout.com/tx/{tx}" },
  100: { name: "Gnosis", url: "https://gnosisscan.io/tx/{tx}" },
  59144: { name: "Linea", url: "https://lineascan.build/tx/{tx}" },
  59141: { name: "Linea Sepolia", url: "https://sepolia.lineascan.build/tx/{tx}" },
  43114: { name: "Avalanche C-Chain", url: "https://snowtrace.io/tx/{tx}" },
  43113: { name: "Avalanche Fuji", url: "https://testnet.snowtrace.io/tx/{tx}" },
});

/** The chain id each EVM network expects when `EVM_<NET>_CHAIN_ID` is not set: Ethereum and Sepolia. */
export const DEFAULT_EVM_CHAIN_IDS: Readonly<Record<Network, number>> = Object.freeze({
  mainnet: 1,
  testnet: 11_155_111,
});

/** The explorer link template for an EVM chain: the setting, else the table, else none. */
export function evmExplorerTemplate(chainId: number, setting: string | undefined): string | null {
  return setting || EVM_EXPLORERS[chainId]?.url || null;
}

/** The setting that names a network's chain id, for messages that tell an operator what to change. */
export const chainIdSetting = (network: Network) => `EVM_${network.toUpperCase()}_CHAIN_ID`;
export const rpcUrlSetting = (network: Network) => `EVM_${network.toUpperCase()}_RPC_URL`;

/**
 * A wallet says which EVM chain it is for (`network_id`, the chain id in decimal); its key signs
 * for any chain, so a wallet made for one chain is refused on a network that is another, before
 * anything is signed. Permanent: the wallet or the price must change, not the moment.
 */
export function checkWalletNetwork(networkId: string | undefined, chainId: number, network: Network): void {
  if (networkId === undefined || networkId === String(chainId)) return;
  throw new ChainError(
    "wrong_network",
    `the wallet is for EVM network ${JSON.stringify(networkId)}, but the price's ${network} network is chain ${chainId} (${chainIdSetting(network)})`,
    { reason: "wallet_network_mismatch" },
  );
}

/** What to tell an operator whose RPC endpoint serves another chain than its network is. */
export function wrongChainMessage(network: Network, expected: number, served: number): string {
  return `${rpcUrlSetting(network)} serves EVM chain ${served}, but the ${network} network is chain ${expected} (${chainIdSetting(network)})`;
}
