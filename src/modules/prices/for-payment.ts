import { and, type Column, eq, type SQL, sql } from "drizzle-orm";
import { triggerForPayment } from "../triggers/for-payment.ts";
import { prices } from "./tables.ts";

/*
 * What a new payment reads of a price, for the payments module to put into its one context
 * statement (src/modules/payments/context.ts) instead of joining these tables itself.
 */

/**
 * The price `priceId` of the app whose id is `appId` (a column of the statement), with its trigger
 * and the trigger's wallet (to check the payment's trigger parameters; the triggers module's
 * part): three left joins, so a price of another app, or none, reads as null. A change to any of
 * the three rows changes the app's version (`appForPayment`); a view counted on the price's row
 * does not (migration 0023).
 */
export function priceForPayment(appId: Column, priceId: SQL) {
  const trigger = triggerForPayment(appId, prices.triggerId);
  const [triggerJoin, walletJoin] = trigger.joins;
  return {
    joins: [
      { table: prices, on: and(eq(prices.appId, appId), eq(prices.id, priceId)) },
      triggerJoin,
      walletJoin,
    ] as const,
    /** The price's seller record, for the seller's part of the statement. */
    sellerId: prices.kycId,
    columns: { price: prices, ...trigger.columns },
  };
}

/**
 * Whether the price `priceId` (a column of the caller's statement) can still be paid at `at` (a
 * timestamp as a parameter or a placeholder): it is not expired, and its expiry, if it has one, is
 * later (presenters.ts `isExpired`, as SQL).
 */
export function priceOpenAt(priceId: Column, at: SQL): SQL {
  return sql`exists (select 1 from ${prices} where ${prices.id} = ${priceId} and not ${prices.expired}
    and (${prices.expiresAt} is null or ${prices.expiresAt} > ${at}::timestamptz))`;
}

/** The views of price `priceId`, counted on its row without raising its app's version, as a subquery. */
export function priceViewsOf(priceId: SQL): SQL<number> {
  return sql<number>`(select ${prices.views} from ${prices} where ${prices.id} = ${priceId})`;
}
