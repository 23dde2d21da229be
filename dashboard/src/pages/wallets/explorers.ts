import type { Wallet } from "@payments-backend/sdk";

/**
 * Where an address is shown in each chain's public explorer. The service keeps only transaction
 * links (its chain settings), so the address pages live here, per network as a wallet names it.
 * An EVM wallet's `network_id` is its chain id; a chain id not listed (a local anvil) gets no link.
 */
const EVM_ADDRESS_PAGES: Readonly<Record<string, string>> = Object.freeze({
  "1": "https://etherscan.io/address/",
  "11155111": "https://sepolia.etherscan.io/address/",
  "17000": "https://holesky.etherscan.io/address/",
  "560048": "https://hoodi.etherscan.io/address/",
  "137": "https://polygonscan.com/address/",
  "80002": "https://amoy.polygonscan.com/address/",
  "8453": "https://basescan.org/address/",
  "84532": "https://sepolia.basescan.org/address/",
  "42161": "https://arbiscan.io/address/",
  "421614": "https://sepolia.arbiscan.io/address/",
  "10": "https://optimistic.etherscan.io/address/",
  "100": "https://gnosisscan.io/address/",
  "59144": "https://lineascan.build/address/",
  "43114": "https://snowtrace.io/address/",
  "43113": "https://testnet.snowtrace.io/address/",
});

export type Chain = Wallet["type"];

export const CHAIN_LABELS: Readonly<Record<Chain, string>> = Object.freeze({
  evm: "EVM",
  near: "NEAR",
  solana: "Solana",
  wax: "WAX",
});

/** The wallet's own chain entry of `wallet_data` (the other three are null). */
export function chainData(wallet: Wallet) {
  return wallet.wallet_data[wallet.type];
}

/** The address page of an account in its chain's explorer, or null when none is known. */
export function addressUrl(chain: Chain, networkId: string, testNetwork: boolean, account: string) {
  const id = encodeURIComponent(account);
  switch (chain) {
    case "evm": {
      const page = EVM_ADDRESS_PAGES[networkId];
      return page ? `${page}${id}` : null;
    }
    case "solana": {
      const cluster = networkId === "mainnet-beta" ? "" : `?cluster=${encodeURIComponent(networkId)}`;
      return `https://explorer.solana.com/address/${id}${cluster}`;
    }
    case "near":
      return `https://${testNetwork ? "testnet." : ""}nearblocks.io/address/${id}`;
    case "wax":
      return `https://${testNetwork ? "testnet." : ""}waxblock.io/account/${id}`;
  }
}

export function walletAddressUrl(wallet: Wallet) {
  const data = chainData(wallet);
  return data ? addressUrl(wallet.type, data.network_id, data.test_network, data.account_id) : null;
}
