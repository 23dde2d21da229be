import { CHAINS, type Chain, NETWORKS, type Network } from "../platform/chains/adapter.ts";
import { DEFAULT_EVM_CHAIN_IDS, evmExplorerTemplate } from "../platform/chains/evm-networks.ts";
import { ConfigError, type Env, integer } from "./parse.ts";

export interface ChainNetworkSettings {
  /** Node RPC endpoint; required only when that chain is used with CHAINS=real. */
  rpcUrl: string | undefined;
  /** Confirmations counted before a transaction is final (EVM) or shown as the finality estimate. */
  requiredConfirmations: number;
  /** Average seconds per block, for `confirmation_status.average_seconds`. */
  blockSeconds: number;
  /** Explorer link template; `{tx}` is replaced by the transaction id. Null: the chain has no explorer (no link). */
  explorerUrl: string | null;
  /** EVM only: the chain id (EIP-155) the network's RPC must serve and its wallets must name. */
  chainId?: number;
}

export interface ChainsConfig {
  /** `sandbox` (a deterministic in-process chain; the default in sandbox mode) or `real` (the nodes below). */
  mode: "sandbox" | "real";
  /** EVM: a transaction still pending this long is reported stuck, to be resent with a higher fee. */
  evmResendAfterSeconds: number;
  networks: Record<Chain, Record<Network, ChainNetworkSettings>>;
}

/** Defaults per chain and network; each number's source is in docs/chains.md. */
// EVM explorers come from the chain id (EVM_EXPLORERS), so they are not listed here.
const CHAIN_DEFAULTS: Record<Chain, Record<Network, Omit<ChainNetworkSettings, "rpcUrl">>> = {
  evm: {
    mainnet: { requiredConfirmations: 12, blockSeconds: 12, explorerUrl: null },
    testnet: { requiredConfirmations: 3, blockSeconds: 12, explorerUrl: null },
  },
  solana: {
    mainnet: {
      requiredConfirmations: 32,
      blockSeconds: 0.4,
      explorerUrl: "https://explorer.solana.com/tx/{tx}",
    },
    testnet: {
      requiredConfirmations: 32,
      blockSeconds: 0.4,
      explorerUrl: "https://explorer.solana.com/tx/{tx}?cluster=devnet",
    },
  },
  near: {
    mainnet: { requiredConfirmations: 3, blockSeconds: 1, explorerUrl: "https://nearblocks.io/txns/{tx}" },
    testnet: {
      requiredConfirmations: 3,
      blockSeconds: 1,
      explorerUrl: "https://testnet.nearblocks.io/txns/{tx}",
    },
  },
  wax: {
    mainnet: {
      requiredConfirmations: 330,
      blockSeconds: 0.5,
      explorerUrl: "https://waxblock.io/transaction/{tx}",
    },
    testnet: {
      requiredConfirmations: 330,
      blockSeconds: 0.5,
      explorerUrl: "https://testnet.waxblock.io/transaction/{tx}",
    },
  },
};

function positiveNumber(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || !(value > 0) || value > 3600) {
    throw new ConfigError(name, `expected a number of seconds above 0 and at most 3600, got "${raw}"`);
  }
  return value;
}

function httpUrl(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  if (!/^https?:\/\/[^\s]+$/.test(raw)) throw new ConfigError(name, "must be an http(s) URL");
  return raw.replace(/\/$/, "");
}

/** `CHAINS` follows `SANDBOX` unless set: live mode means real chains. */
export function loadChainsConfig(env: Env, sandbox = true): ChainsConfig {
  const mode = env.CHAINS || (sandbox ? "sandbox" : "real");
  if (mode !== "sandbox" && mode !== "real") throw new ConfigError("CHAINS", "must be sandbox or real");
  const networks = {} as ChainsConfig["networks"];
  for (const chain of CHAINS) {
    networks[chain] = {} as Record<Network, ChainNetworkSettings>;
    for (const network of NETWORKS) {
      const prefix = `${chain.toUpperCase()}_${network.toUpperCase()}`;
      const defaults = CHAIN_DEFAULTS[chain][network];
      const explorerSetting = env[`${prefix}_EXPLORER_URL`];
      if (explorerSetting && (!/^https?:\/\//.test(explorerSetting) || !explorerSetting.includes("{tx}"))) {
        throw new ConfigError(`${prefix}_EXPLORER_URL`, "must be an http(s) URL containing {tx}");
      }
      // An EVM network is a chain id; its explorer follows from it unless the setting names one.
      const chainId =
        chain === "evm"
          ? integer(env, `${prefix}_CHAIN_ID`, DEFAULT_EVM_CHAIN_IDS[network], 1, Number.MAX_SAFE_INTEGER)
          : undefined;
      const explorerUrl =
        chainId === undefined
          ? explorerSetting || defaults.explorerUrl
          : evmExplorerTemplate(chainId, explorerSetting);
      networks[chain][network] = {
        rpcUrl: httpUrl(env, `${prefix}_RPC_URL`),
        requiredConfirmations: integer(
          env,
          `${prefix}_CONFIRMATIONS`,
          defaults.requiredConfirmations,
          1,
          10_000,
        ),
        blockSeconds: positiveNumber(env, `${prefix}_BLOCK_SECONDS`, defaults.blockSeconds),
        explorerUrl,
        ...(chainId === undefined ? {} : { chainId }),
      };
    }
  }
  return {
    mode,
    evmResendAfterSeconds: integer(env, "EVM_RESEND_AFTER_SECONDS", 180, 5, 86_400),
    networks,
  };
}
