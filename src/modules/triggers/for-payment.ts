import { and, type Column, eq } from "drizzle-orm";
import type { Executor } from "../../platform/db/index.ts";
import { walletForPayment, walletJoin } from "../wallets/queries.ts";
import { triggers } from "./tables.ts";

/*
 * What payments read of a price's trigger and its wallet: the new payment's context (through
 * prices/for-payment.ts) and the chain step (payments/chain-step.ts). They call these instead of
 * naming the triggers table (test/platform/layers.test.ts); the wallet's part is the wallets
 * module's own.
 */

/**
 * Trigger `triggerId` of the app whose id is `appId` (both columns of the caller's statement)
 * with its wallet: two left joins, so another app's trigger, or none, reads as null.
 */
export function triggerForPayment(appId: Column, triggerId: Column) {
  const wallet = walletForPayment(triggers.walletId);
  return {
    joins: [
      { table: triggers, on: and(eq(triggers.id, triggerId), eq(triggers.appId, appId)) },
      wallet.join,
    ] as const,
    columns: {
      trigger: {
        callData: triggers.callData,
        paramsData: triggers.paramsData,
        customAddressEnabled: triggers.customAddressEnabled,
        customAddress: triggers.customAddress,
      },
      wallet: wallet.columns,
    },
  };
}

/**
 * Trigger `triggerId` of app `appId` with its wallet, for the chain step's one statement: read
 * `from(part.table)`, `.innerJoin(part.wallet.table, part.wallet.on)` filtered by `part.where`,
 * selecting `part.columns` (both whole rows: the wallet's sealed key signs the call).
 */
export function triggerWithWallet(appId: string, triggerId: string) {
  const wallet = walletJoin(triggers.walletId);
  return {
    table: triggers,
    wallet: { table: wallet.table, on: wallet.on },
    where: and(eq(triggers.id, triggerId), eq(triggers.appId, appId)),
    columns: { trigger: triggers, wallet: wallet.columns },
  };
}

/** Where the wallet of trigger `triggerId` is on its chain (its id, account and chain), or undefined. */
export async function walletOfTrigger(db: Executor, triggerId: string) {
  const wallet = walletJoin(triggers.walletId);
  const [row] = await db
    .select(wallet.address)
    .from(triggers)
    .innerJoin(wallet.table, wallet.on)
    .where(eq(triggers.id, triggerId));
  return row;
}
