import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import type { Executor } from "../../platform/db/index.ts";
import { notFound } from "../../platform/http/errors.ts";
import { formatAmount } from "../../platform/money/amount.ts";
import { currencyOf } from "../../platform/money/currencies.ts";
import { ownedDeletedApp } from "../apps/queries.ts";
import { actorName } from "./create.ts";
import type { PaymentRow } from "./lifecycle.ts";
import { refundLocked } from "./pipeline/refund.ts";
import { loadPayment } from "./reads.ts";

// A deleted app keeps its payments (docs/payments.md, Deleting an app): the users who owned it when
// it was deleted can still read one and refund it, here, without the app. Anyone else reads 404,
// as for any app they are not part of; API keys went with the app.

/** 404 unless the caller is a user who owned the deleted app `appId`. */
async function requireFormerOwner(db: Executor, actor: Principal, appId: string) {
  if (actor.kind !== "user") throw notFound("Deleted app");
  if (!(await ownedDeletedApp(db, appId, actor.userId))) throw notFound("Deleted app");
}

/** The payment as far as it stands without its app and price (both deleted). */
export function presentDeletedAppPayment(row: PaymentRow) {
  return {
    id: row.id,
    app_id: row.appId,
    status: row.status,
    final_amount: formatAmount(row.chargeAmount, currencyOf(row.chargeCurrency, "charge_currency")),
    payment_provider: row.method as "card" | "us_bank_account",
    transaction_id: row.transactionId,
    transaction_response: row.transactionResponse as Record<string, unknown>,
    price_item: row.priceItem,
    kyc_id: row.kycId,
    shopper_email: row.shopperEmail,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function getDeletedAppPayment(deps: Deps, actor: Principal, appId: string, paymentId: string) {
  await requireFormerOwner(deps.db, actor, appId);
  return presentDeletedAppPayment(await loadPayment(deps.db, appId, paymentId));
}

/**
 * Refunds a payment of a deleted app in full, as `refund` does for a live app (`refundLocked`): the same moves (a
 * `paid`, `failed-captured` or `failed-transfers` payment only, else 409), the same refund job
 * (the shopper first, then the seller's transfer taken back), the same payment event.
 */
export async function refundDeletedAppPayment(
  deps: Deps,
  actor: Principal,
  appId: string,
  paymentId: string,
  reason?: string,
) {
  await requireFormerOwner(deps.db, actor, appId);
  const row = await deps.db.transaction(async (tx) =>
    refundLocked(
      deps,
      tx,
      await loadPayment(tx, appId, paymentId, true),
      { reason: reason ?? "refunded by a former owner after the app was deleted" },
      actorName(actor),
    ),
  );
  return presentDeletedAppPayment(row);
}
