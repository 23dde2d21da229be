import { eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Chain, Network } from "../../platform/chains/adapter.ts";
import { expiringMapPer } from "../../platform/expiring-map.ts";
import { AppError } from "../../platform/http/errors.ts";
import type { JobDefinition } from "../../platform/jobs/index.ts";
import { emitEvent } from "../webhooks/events.ts";
import { walletBalances, wallets } from "./tables.ts";

/*
 * A wallet's native balance (docs/wallets.md, "Balance"): what it has left to pay the fees of the
 * contract calls it signs. Read from the chain through the adapter, kept for BALANCE_CACHE_SECONDS
 * (in the process, and in `wallet_balances` for every process and for `balance_checked_at`), and
 * compared with the wallet's threshold: crossing below it sends `wallet.balance_low` once.
 */

/** How long a balance read from the chain is answered before the chain is asked again. */
export const BALANCE_CACHE_SECONDS = 30;
/** A chain that does not answer in this time leaves the balance as last known. */
const READ_TIMEOUT_MS = 5000;

/** Each chain's native currency, in which its balance and fees are counted. */
export const NATIVE: Readonly<Record<Chain, { currency: string; decimals: number }>> = Object.freeze({
  evm: { currency: "eth", decimals: 18 },
  solana: { currency: "sol", decimals: 9 },
  near: { currency: "near", decimals: 24 },
  wax: { currency: "wax", decimals: 8 },
});

/** `wallet.balance_low` fires below this unless the wallet sets its own `balance_low_threshold`. */
export const DEFAULT_LOW_THRESHOLD: Readonly<Record<Chain, bigint>> = Object.freeze({
  evm: 10n ** 16n, // 0.01 ETH
  solana: 5n * 10n ** 7n, // 0.05 SOL
  near: 10n ** 24n, // 1 NEAR
  wax: 10n * 10n ** 8n, // 10 WAX
});

/**
 * The least the cheapest transaction costs: a balance below it cannot pay for any call, so a
 * payment is refused before the card is held. EVM: 21,000 gas at 1 gwei; Solana: one signature's
 * 5,000 lamports; NEAR: 0.0001 NEAR. WAX pays with staked CPU and NET, not its liquid balance,
 * so it is never refused on balance (the node's refusal ends such a payment instead).
 */
export const MIN_FEE: Readonly<Record<Chain, bigint>> = Object.freeze({
  evm: 21_000n * 10n ** 9n,
  solana: 5_000n,
  near: 10n ** 20n,
  wax: 0n,
});

export const CHECK_BALANCE_JOB = "wallets.check-balance";

type WalletRow = typeof wallets.$inferSelect;
export type BalanceWallet = Pick<
  WalletRow,
  "id" | "appId" | "type" | "accountId" | "testNetwork" | "networkId" | "balanceLowThreshold"
>;

export interface BalanceView {
  /** Smallest unit; null while the chain was never read (or could not be). */
  balance: bigint | null;
  checkedAt: Date | null;
  threshold: bigint;
  low: boolean;
}

const memo = expiringMapPer<object, string, { balance: bigint; checkedAt: Date }>({
  ttlMs: BALANCE_CACHE_SECONDS * 1000,
  maxEntries: 10_000,
});
const memoOf = (deps: Pick<Deps, "db">) => memo(deps.db);

/** Forgets this process's cached balance (the wallet's account or threshold changed). */
export function forgetBalance(deps: Pick<Deps, "db">, walletId: string) {
  memoOf(deps).delete(walletId);
}

export const thresholdOf = (wallet: Pick<WalletRow, "type" | "balanceLowThreshold">) =>
  wallet.balanceLowThreshold ?? DEFAULT_LOW_THRESHOLD[wallet.type];

const networkOf = (wallet: Pick<WalletRow, "testNetwork">): Network =>
  wallet.testNetwork ? "testnet" : "mainnet";

/** `1.5` from 15 and 1 decimal: a decimal string of a smallest-unit amount, exact at any size. */
export function decimalString(value: bigint, decimals: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/**
 * The wallet's balance, read from the chain when the last read is older than `maxAgeSeconds`
 * (BALANCE_CACHE_SECONDS by default; 0 reads now). A chain that cannot be read leaves the last
 * known balance (null if none): a balance is advice, never a reason to fail a read.
 */
export async function walletBalance(
  deps: Deps,
  wallet: BalanceWallet,
  options: { maxAgeSeconds?: number; network?: Network } = {},
): Promise<BalanceView> {
  const threshold = thresholdOf(wallet);
  const maxAgeMs = (options.maxAgeSeconds ?? BALANCE_CACHE_SECONDS) * 1000;
  const now = deps.now();
  const fresh = (checkedAt: Date) => now.getTime() - checkedAt.getTime() < maxAgeMs;
  const memoed = memoOf(deps).get(wallet.id);
  if (memoed && fresh(memoed.checkedAt)) return view(memoed, threshold);
  const [stored] = await deps.db.select().from(walletBalances).where(eq(walletBalances.walletId, wallet.id));
  if (stored && fresh(stored.checkedAt)) {
    memoOf(deps).set(wallet.id, stored);
    return view(stored, threshold);
  }
  let balance: bigint;
  try {
    const adapter = deps.chains.adapter(wallet.type, options.network ?? networkOf(wallet));
    balance = await Promise.race([
      adapter.balance(wallet.accountId),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error("no answer in time")), READ_TIMEOUT_MS).unref(),
      ),
    ]);
  } catch (error) {
    deps.logger.debug({ err: error, wallet_id: wallet.id }, "wallet balance not read");
    return stored ? view(stored, threshold) : { balance: null, checkedAt: null, threshold, low: false };
  }
  const recorded = await recordBalance(deps, wallet, balance);
  memoOf(deps).set(wallet.id, recorded);
  return view(recorded, threshold);
}

function view(read: { balance: bigint; checkedAt: Date }, threshold: bigint): BalanceView {
  return { balance: read.balance, checkedAt: read.checkedAt, threshold, low: read.balance < threshold };
}

/**
 * Stores a balance just read and, when it is below the wallet's threshold for the first time since
 * it was last above, sends `wallet.balance_low` (only for a wallet some trigger uses: an idle
 * wallet spends nothing). The upsert's row lock makes concurrent reads send it once.
 */
async function recordBalance(deps: Deps, wallet: BalanceWallet, balance: bigint) {
  const checkedAt = deps.now();
  const threshold = thresholdOf(wallet);
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(walletBalances)
      .values({ walletId: wallet.id, balance, checkedAt })
      .onConflictDoUpdate({ target: walletBalances.walletId, set: { balance, checkedAt } })
      .returning();
    if (balance >= threshold && row.lowSince) {
      await tx.update(walletBalances).set({ lowSince: null }).where(eq(walletBalances.walletId, wallet.id));
    } else if (balance < threshold && !row.lowSince) {
      if ((await deps.referrers.triggersOfWallet(tx, wallet.id)) === 0) return row;
      await tx
        .update(walletBalances)
        .set({ lowSince: checkedAt })
        .where(eq(walletBalances.walletId, wallet.id));
      const native = NATIVE[wallet.type];
      await emitEvent(deps, tx, {
        appId: wallet.appId,
        type: "wallet.balance_low",
        data: {
          wallet_id: wallet.id,
          type: wallet.type,
          account_id: wallet.accountId,
          network_id: wallet.networkId,
          balance: decimalString(balance, native.decimals),
          balance_low_threshold: decimalString(threshold, native.decimals),
          currency: native.currency,
          checked_at: checkedAt.toISOString(),
        },
      });
    }
    return row;
  });
}

/**
 * Refuses a payment whose trigger's wallet cannot pay for even the cheapest transaction, before any
 * money moves (409 `wallet_unfunded`). A balance that cannot be read does not refuse, and a cached
 * one that would is read again first. WAX (MIN_FEE 0) is never refused here.
 */
export async function checkCanPayGas(deps: Deps, wallet: BalanceWallet, network: Network): Promise<void> {
  const enough = (balance: bigint | null) => balance === null || balance >= MIN_FEE[wallet.type];
  if (enough((await walletBalance(deps, wallet, { network })).balance)) return;
  // A refusal is never made on a cached balance: the wallet may have been funded since.
  const { balance } = await walletBalance(deps, wallet, { network, maxAgeSeconds: 0 });
  if (balance === null || enough(balance)) return;
  const native = NATIVE[wallet.type];
  throw new AppError(
    "wallet_unfunded",
    `The wallet that runs this price's contract call (${wallet.accountId}) has ${decimalString(balance, native.decimals)} ${native.currency.toUpperCase()}, not enough to pay for gas: fund it, then try again`,
  );
}

/** After a contract call: the sending wallet's balance read afresh (it just paid a fee). */
export function checkBalanceJob(deps: Deps): JobDefinition<{ walletId: string }> {
  return {
    name: CHECK_BALANCE_JOB,
    retryLimit: 2,
    async handle({ walletId }) {
      const [wallet] = await deps.db.select().from(wallets).where(eq(wallets.id, walletId));
      if (wallet) await walletBalance(deps, wallet, { maxAgeSeconds: 0 });
    },
  };
}

/** The sandbox faucet: sets a sandbox wallet's balance, and reads it back at once. */
export async function setSandboxBalance(deps: Deps, wallet: BalanceWallet, balance: bigint) {
  deps.chains.sandbox.setBalance(wallet.type, wallet.accountId, balance);
  return walletBalance(deps, wallet, { maxAgeSeconds: 0 });
}
