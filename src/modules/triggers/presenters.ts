import type { getApp } from "../apps/service.ts";
import { presentWallet, type WalletRow } from "../wallets/presenters.ts";
import type { triggers } from "./tables.ts";

type TriggerRow = typeof triggers.$inferSelect;
type AppView = Awaited<ReturnType<typeof getApp>>;

export function presentTrigger(row: TriggerRow, wallet: WalletRow, app: AppView) {
  return {
    id: row.id,
    name: row.name,
    custom_address_enabled: row.customAddressEnabled,
    custom_address: row.customAddress,
    call_data: { near: null, evm: null, wax: null, solana: null, ...(row.callData as object) },
    app,
    wallet: presentWallet(wallet, app),
    params_data: row.paramsData as Record<string, unknown>,
    params_data_input: (row.paramsDataInput ?? {}) as Record<string, unknown>,
    params_data_example: row.paramsDataExample ?? "{}",
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
