import { formatAmount, formatAmountText } from "../../platform/money/amount.ts";
import { currencyOf } from "../../platform/money/currencies.ts";
import type { BookedTransfer } from "./reads.ts";
import type { ledgerEntries } from "./tables.ts";

export function presentTransfer(t: BookedTransfer) {
  const currency = currencyOf(t.currency, "currency");
  const reversed = t.reversals.reduce((sum, r) => sum + r.amount, 0n);
  return {
    id: t.id,
    amount: formatAmount(t.amount, currency),
    amount_reversed: formatAmount(reversed, currency),
    currency: t.currency,
    kyc_id: t.kycId,
    status: reversed === 0n ? "paid" : reversed >= t.amount ? "reversed" : "partially_reversed",
    reversals: t.reversals.map((r) => ({
      id: r.id,
      amount: formatAmount(r.amount, currency),
      created_at: r.createdAt.toISOString(),
    })),
    created_at: t.createdAt.toISOString(),
  } as const;
}

export function presentEntry(row: typeof ledgerEntries.$inferSelect) {
  return {
    id: row.id,
    transaction_id: row.transactionId,
    account: row.account,
    currency: row.currency,
    amount: formatAmountText(row.amount, currencyOf(row.currency, "currency")),
    type: row.type,
    payment_id: row.paymentId,
    reference: row.reference,
    created_at: row.createdAt.toISOString(),
  };
}
