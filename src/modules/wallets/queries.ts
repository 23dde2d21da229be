import { and, type Column, eq } from "drizzle-orm";
import type { Executor } from "../../platform/db/index.ts";
import type { WalletRow } from "./presenters.ts";
import { wallets } from "./tables.ts";

/*
 * What other modules read of wallets: triggers read a trigger's wallet, and through the triggers'
 * own parts so do prices (the payment's context) and payments (the chain step). They call these
 * instead of naming the wallets table (test/platform/layers.test.ts).
 */

/**
 * The wallet whose id is `walletId` (a column of the caller's statement), as a join of that
 * statement: `.innerJoin(part.table, part.on)`, selecting `part.columns` (the whole row, sealed key
 * included, for the chain step that signs with it), or `part.address` (where it is on its chain).
 */
export function walletJoin(walletId: Column) {
  return {
    table: wallets,
    on: eq(wallets.id, walletId),
    columns: wallets,
    address: { id: wallets.id, accountId: wallets.accountId, type: wallets.type },
  };
}

/**
 * `walletJoin` for the payment's context statement: what checking a payment's trigger parameters
 * needs of the wallet.
 */
export function walletForPayment(walletId: Column) {
  const { table, on } = walletJoin(walletId);
  return {
    join: { table, on },
    columns: {
      id: wallets.id,
      appId: wallets.appId,
      type: wallets.type,
      accountId: wallets.accountId,
      permission: wallets.permission,
      testNetwork: wallets.testNetwork,
      networkId: wallets.networkId,
      balanceLowThreshold: wallets.balanceLowThreshold,
    },
  };
}

/**
 * Wallet `walletId` of app `appId` under a share lock (it cannot be deleted until the caller's
 * transaction ends), or undefined: another app's wallet reads as none.
 */
export async function shareLockWallet(
  tx: Executor,
  appId: string,
  walletId: string,
): Promise<WalletRow | undefined> {
  const [wallet] = await tx
    .select()
    .from(wallets)
    .where(and(eq(wallets.appId, appId), eq(wallets.id, walletId)))
    .for("share");
  return wallet;
}
