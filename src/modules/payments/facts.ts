import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { PaymentFact } from "../../deps.ts";
import type { Executor } from "../../platform/db/index.ts";
import { payments } from "./tables.ts";

/**
 * `deps.paymentFacts`: a page of an app's payments, by id, as reconciliation compares them with
 * the books, the provider and the chain (the ledger module never reads payments' tables).
 */
export async function paymentFacts(
  db: Executor,
  appId: string,
  afterId: string | null,
  limit: number,
): Promise<PaymentFact[]> {
  const rows = await db
    .select({
      id: payments.id,
      status: payments.status,
      providerId: payments.providerId,
      intentId: payments.intentId,
      captured: payments.capturedAmount,
      refunded: payments.refundedAmount,
      total: payments.chargeAmount,
      currency: payments.chargeCurrency,
      triggerId: payments.triggerId,
      transactionId: payments.transactionId,
      sentTransaction: payments.sentTransaction,
      confirmation: payments.confirmationStatus,
      // Which step the recorded error came from: `chain` when the chain refused or dropped the call.
      failedStep: sql<string | null>`${payments.transactionResponse} -> 'error' ->> 'step'`,
    })
    .from(payments)
    .where(and(eq(payments.appId, appId), afterId ? gt(payments.id, afterId) : undefined))
    .orderBy(asc(payments.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    providerId: r.providerId,
    intentId: r.intentId,
    captured: r.captured,
    refunded: r.refunded,
    total: r.total,
    currency: r.currency,
    triggerId: r.triggerId,
    transactionId: r.transactionId,
    sent: r.sentTransaction !== null || r.transactionId !== null,
    confirmed: r.confirmation.confirmed === true,
    chainFailed: r.failedStep === "chain",
  }));
}
