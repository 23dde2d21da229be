import { type Column, sql } from "drizzle-orm";
import type { SellerState } from "./sellers.ts";
import { kycs } from "./tables.ts";

/**
 * The standing of seller record `kycId` of the app whose id is `appId` (both columns of the
 * caller's statement) as a subquery, decided on by `sellerStanding`: what the payments module's
 * context statement reads of KYC records (src/modules/payments/context.ts). A record of another
 * app, or none, reads as null.
 */
export function sellerForPayment(appId: Column, kycId: Column) {
  const record = sql`from ${kycs} where ${kycs.appId} = ${appId} and ${kycs.id} = ${kycId}`;
  return sql<SellerState | null>`(select json_build_object('active', ${kycs.active},
      'accountId', ${kycs.providerAccountId}, 'payoutsEnabled', ${kycs.payoutsEnabled},
      'capabilities', ${kycs.capabilities}, 'requirements', ${kycs.requirements}) ${record})`;
}
