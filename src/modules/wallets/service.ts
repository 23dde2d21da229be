import { eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { recordAudit } from "../../platform/audit/log.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import type { Chain } from "../../platform/chains/adapter.ts";
import type { Executor } from "../../platform/db/index.ts";
import { appRecord, deleteUnusedAppRecord } from "../../platform/http/app-record.ts";
import { invalid } from "../../platform/http/errors.ts";
import { type Page, pageOfRows } from "../../platform/http/pagination.ts";
import { newId } from "../../platform/ids.ts";
import { requireAppRole } from "../apps/access.ts";
import { getApp } from "../apps/service.ts";
import { forgetBalance, NATIVE, setSandboxBalance, walletBalance } from "./balance.ts";
import { keyChange, keyForNewWallet, type WalletDataInput } from "./key-material.ts";
import { presentWallet } from "./presenters.ts";
import { envelopeColumns, walletContext } from "./secrets.ts";
import { walletBalances, wallets } from "./tables.ts";

export interface CreateWalletInput {
  name: string;
  type: Chain;
  balance_low_threshold?: string;
  wallet_data?: WalletDataInput;
}

export interface UpdateWalletInput {
  name?: string;
  balance_low_threshold?: string;
  wallet_data?: WalletDataInput;
}

// Where a wallet points when the caller names no network: the chains' public test networks in
// sandbox mode, their main networks otherwise. EVM network ids are chain ids: those the server's
// networks are (EVM_TESTNET_CHAIN_ID / EVM_MAINNET_CHAIN_ID, Sepolia and Ethereum by default).
const DEFAULT_NETWORK: Record<Exclude<Chain, "evm">, { test: string; main: string }> = {
  near: { test: "testnet", main: "mainnet" },
  solana: { test: "devnet", main: "mainnet-beta" },
  wax: { test: "testnet", main: "mainnet" },
};

/** A threshold given in the chain's native currency, in its smallest unit; 400 naming the field. */
function thresholdInput(type: Chain, given: string | undefined): bigint | null {
  if (given === undefined) return null;
  const { decimals, currency } = NATIVE[type];
  const [whole, fraction = ""] = given.split(".");
  if (fraction.length > decimals)
    throw invalid("/body/balance_low_threshold", `${currency} has at most ${decimals} decimals`);
  return BigInt(whole + fraction.padEnd(decimals, "0"));
}

/** A wallet of the app, or 404: another app's wallet id is answered as if it did not exist. */
export async function loadWallet(db: Executor, appId: string, walletId: string) {
  return appRecord(db, wallets, appId, walletId, "Wallet");
}

export async function createWallet(deps: Deps, actor: Principal, appId: string, input: CreateWalletInput) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const key = await keyForNewWallet(input.type, input.wallet_data);
  const own = input.wallet_data?.[input.type];
  const testNetwork = own?.test_network ?? deps.config.sandbox;
  const evm = deps.config.chains.networks.evm;
  const defaults =
    input.type === "evm"
      ? { test: String(evm.testnet.chainId), main: String(evm.mainnet.chainId) }
      : DEFAULT_NETWORK[input.type];
  const id = newId("wal");
  const row = await deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(wallets)
      .values({
        id,
        appId,
        name: input.name,
        type: input.type,
        managed: key.managed,
        networkId: own?.network_id ?? (testNetwork ? defaults.test : defaults.main),
        testNetwork,
        accountId: key.accountId,
        publicKey: key.publicKey,
        permission: key.permission,
        balanceLowThreshold: thresholdInput(input.type, input.balance_low_threshold),
        ...envelopeColumns(deps.custody.seal(walletContext(id), key.secret)),
      })
      .returning();
    await recordAudit(tx, actor, { appId, action: "wallet.create", targetId: id });
    return created;
  });
  return presentWallet(row, await getApp(deps, actor, appId), await walletBalance(deps, row));
}

export async function listWallets(deps: Deps, actor: Principal, appId: string, page: Page) {
  const app = await getApp(deps, actor, appId);
  const { rows, total, neighbours } = await pageOfRows(deps, page, {
    table: wallets,
    scope: eq(wallets.appId, appId),
    newestFirst: true,
  });
  const balances = await Promise.all(rows.map((row) => walletBalance(deps, row)));
  return { items: rows.map((row, i) => presentWallet(row, app, balances[i])), total, neighbours };
}

export async function getWallet(deps: Deps, actor: Principal, appId: string, walletId: string) {
  const app = await getApp(deps, actor, appId);
  const row = await loadWallet(deps.db, appId, walletId);
  return presentWallet(row, app, await walletBalance(deps, row));
}

export async function updateWallet(
  deps: Deps,
  actor: Principal,
  appId: string,
  walletId: string,
  input: UpdateWalletInput,
) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const row = await deps.db.transaction(async (tx) => {
    const current = await appRecord(tx, wallets, appId, walletId, "Wallet", "update");
    const change = await keyChange(
      { type: current.type, accountId: current.accountId, publicKey: current.publicKey },
      input.wallet_data,
    );
    const [updated] = await tx
      .update(wallets)
      .set({
        name: input.name,
        ...(input.balance_low_threshold === undefined
          ? {}
          : { balanceLowThreshold: thresholdInput(current.type, input.balance_low_threshold) }),
        accountId: change.accountId,
        publicKey: change.publicKey,
        // An imported key replaces the generated one: the service no longer holds the only copy.
        ...(change.secret === undefined
          ? {}
          : {
              managed: false,
              ...envelopeColumns(deps.custody.seal(walletContext(walletId), change.secret)),
            }),
        updatedAt: deps.now(),
      })
      .where(eq(wallets.id, walletId))
      .returning();
    // A new threshold or account is judged afresh: the next read may send `wallet.balance_low`.
    if (input.balance_low_threshold !== undefined || change.accountId !== current.accountId)
      await tx.delete(walletBalances).where(eq(walletBalances.walletId, walletId));
    await recordAudit(tx, actor, { appId, action: "wallet.update", targetId: walletId });
    return updated;
  });
  forgetBalance(deps, walletId);
  return presentWallet(row, await getApp(deps, actor, appId), await walletBalance(deps, row));
}

export async function deleteWallet(deps: Deps, actor: Principal, appId: string, walletId: string) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const wallet = { table: wallets, appId, id: walletId, what: "Wallet", action: "wallet.delete" };
  // A trigger's wallet: a trigger created meanwhile waits for the row lock, so the count sees it.
  await deleteUnusedAppRecord(deps.db, actor, wallet, {
    count: (tx) => deps.referrers.triggersOfWallet(tx, walletId),
    refusal: (used) => `The wallet is used by ${used} trigger(s); delete or move them first`,
  });
}

/**
 * The sandbox faucet (sandbox chains only): sets the wallet's balance on the sandbox chain, `"0"`
 * making it a wallet that cannot pay for gas, and answers the wallet with it.
 */
export async function setSandboxWalletBalance(
  deps: Deps,
  actor: Principal,
  appId: string,
  walletId: string,
  balance: string,
) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const row = await loadWallet(deps.db, appId, walletId);
  const { decimals, currency } = NATIVE[row.type];
  const [whole, fraction = ""] = balance.split(".");
  if (fraction.length > decimals)
    throw invalid("/body/balance", `${currency} has at most ${decimals} decimals`);
  const read = await setSandboxBalance(deps, row, BigInt(whole + fraction.padEnd(decimals, "0")));
  return presentWallet(row, await getApp(deps, actor, appId), read);
}
