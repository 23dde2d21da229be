import type { getApp } from "../apps/service.ts";
import { type BalanceView, decimalString, NATIVE, thresholdOf } from "./balance.ts";
import type { wallets } from "./tables.ts";

export type WalletRow = typeof wallets.$inferSelect;
type AppView = Awaited<ReturnType<typeof getApp>>;

/** The chain object of `wallet_data`; every secret field is null, whatever is stored. */
function chainData(row: WalletRow) {
  const common = { network_id: row.networkId, account_id: row.accountId, test_network: row.testNetwork };
  switch (row.type) {
    case "near":
      return { near: { ...common, phrase_or_key: null } };
    case "evm":
      return { evm: { ...common, private_key: null } };
    case "wax":
      return {
        wax: {
          ...common,
          permission: row.permission ?? "active",
          public_key: row.publicKey ?? "",
          private_key: null,
        },
      };
    case "solana":
      return { solana: { ...common, private_key: null } };
  }
}

/** The wallet's native balance, as last read from its chain (docs/wallets.md, "Balance"). */
function balanceFields(row: WalletRow, read: BalanceView | undefined) {
  const { decimals, currency } = NATIVE[row.type];
  const threshold = thresholdOf(row);
  return {
    balance: read?.balance == null ? null : decimalString(read.balance, decimals),
    balance_currency: currency,
    balance_checked_at: read?.checkedAt?.toISOString() ?? null,
    balance_low_threshold: decimalString(threshold, decimals),
    balance_low: read?.balance != null && read.balance < threshold,
  };
}

export function presentWallet(row: WalletRow, app: AppView, balance?: BalanceView) {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    managed: row.managed,
    wallet_data: { near: null, evm: null, wax: null, solana: null, ...chainData(row) },
    app,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    magic_network: row.testNetwork ? "testnet" : "mainnet",
    ...balanceFields(row, balance),
  };
}
