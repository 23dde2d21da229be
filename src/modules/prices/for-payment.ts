import { and, type Column, eq, type SQL, sql } from "drizzle-orm";
import { triggers } from "../triggers/tables.ts";
import { wallets } from "../wallets/tables.ts";
import { prices } from "./tables.ts";

/*
 * What a new payment reads of a price, for the payments module to put into its one context
 * statement (src/modules/payments/context.ts) instead of joining these tables itself.
 */

/**
 * The price `priceId` of the app whose id is `appId` (a column of the statement), with its trigger
 * and the trigger's wallet (to check the payment's trigger parameters): three left joins, so a
 * price of another app, or none, reads as null. `versions` shows a change to any of the three
 * rows. The price's is a digest of its values without `views`, not its `xmin`: the checkout page
 * counts a view on that row, and a shopper who opens the page and then pays must not make the
 * create read again.
 */
export function priceForPayment(appId: Column, priceId: SQL) {
  return {
    joins: [
      { table: prices, on: and(eq(prices.appId, appId), eq(prices.id, priceId)) },
      { table: triggers, on: and(eq(triggers.id, prices.triggerId), eq(triggers.appId, appId)) },
      { table: wallets, on: eq(wallets.id, triggers.walletId) },
    ],
    /** The price's seller record, for the seller's part of the statement. */
    sellerId: prices.kycId,
    columns: {
      price: prices,
      trigger: {
        callData: triggers.callData,
        paramsData: triggers.paramsData,
        customAddressEnabled: triggers.customAddressEnabled,
        customAddress: triggers.customAddress,
      },
      wallet: {
        id: wallets.id,
        appId: wallets.appId,
        type: wallets.type,
        accountId: wallets.accountId,
        permission: wallets.permission,
        testNetwork: wallets.testNetwork,
        networkId: wallets.networkId,
        balanceLowThreshold: wallets.balanceLowThreshold,
      },
    },
    versions: [sql`md5((to_jsonb(${prices}) - 'views')::text)`, sql`${triggers}.xmin`, sql`${wallets}.xmin`],
  };
}
