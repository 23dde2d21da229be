import { formatAmount } from "../../platform/money/amount.ts";
import { currencyOf } from "../../platform/money/currencies.ts";
import type { presentApp } from "../apps/service.ts";
import { presentTransfer } from "../ledger/presenters.ts";
import type { BookedTransfer } from "../ledger/reads.ts";
import type { presentPrice } from "../prices/presenters.ts";
import { captureAsked } from "./pipeline/capture.ts";
import { payments } from "./tables.ts";

type PaymentRow = typeof payments.$inferSelect;

/**
 * The columns a payment's answer reads: `presentPayment`'s, the payment token's and those saying
 * whether the books hold its transfers. A read made only to answer (a GET by id, a list's page)
 * selects these, not all of the row's 44: the database formats a third fewer columns (two of them
 * `jsonb`) and the process parses them (docs/benchmarks.md, "The answer's columns only").
 */
export const answerColumns = {
  id: payments.id,
  appId: payments.appId,
  priceId: payments.priceId,
  status: payments.status,
  method: payments.method,
  chargeAmount: payments.chargeAmount,
  chargeCurrency: payments.chargeCurrency,
  refundedAmount: payments.refundedAmount,
  capturedAmount: payments.capturedAmount,
  transfers: payments.transfers,
  triggerId: payments.triggerId,
  triggerDataInput: payments.triggerDataInput,
  transactionId: payments.transactionId,
  transactionUrl: payments.transactionUrl,
  transactionResponse: payments.transactionResponse,
  confirmationStatus: payments.confirmationStatus,
  priceItem: payments.priceItem,
  nextAction: payments.nextAction,
  authState: payments.authState,
  signedAt: payments.signedAt,
  deferExecution: payments.deferExecution,
  executeAskedAt: payments.executeAskedAt,
  shopperEmail: payments.shopperEmail,
  kycId: payments.kycId,
  paymentTokenSealed: payments.paymentTokenSealed,
  createdAt: payments.createdAt,
  updatedAt: payments.updatedAt,
};

/** A payment as its answer reads it (a whole row is one too). */
export type PaymentAnswer = Pick<PaymentRow, keyof typeof answerColumns>;

type AppView = ReturnType<typeof presentApp>;

const EMPTY_RESPONSE = { error: null, near: null, evm: null, wax: null, solana: null };
const NO_CONFIRMATIONS = {
  average_seconds: 0,
  progress: 0,
  required_confirmations: 0,
  confirmations: 0,
  confirmed: false,
};

/**
 * A payment without a chain step (its price has no trigger) has nothing to confirm: once the money
 * has moved (`paid`, and what can follow it) its confirmation is complete, with no confirmations
 * required. A payment with a chain step reports what the chain step recorded.
 */
const SETTLED_WITHOUT_CHAIN = new Set(["paid", "failed-transfers", "refunded"]);

export function confirmationOf(row: Pick<PaymentRow, "triggerId" | "status" | "confirmationStatus">) {
  if (!row.triggerId && SETTLED_WITHOUT_CHAIN.has(row.status)) {
    return { ...NO_CONFIRMATIONS, progress: 100, confirmed: true };
  }
  return { ...NO_CONFIRMATIONS, ...row.confirmationStatus };
}

/**
 * Whether the app may still cancel the payment (`cancelable`; the dashboard shows Cancel only
 * then): a pending payment not being authorised, or a card hold whose contract call was never
 * signed and whose capture is not asked for. Once a call is signed the chain's outcome decides,
 * once the capture is asked for the capture does (docs/payments.md).
 */
export function isCancelable(row: PaymentAnswer): boolean {
  if (row.status === "pending") return row.authState === "none";
  return row.status === "hold" && row.capturedAmount === 0n && row.signedAt === null && !captureAsked(row);
}

export function presentPayment(
  row: PaymentAnswer,
  context: {
    app: AppView;
    /** As `presentPrice` presents it: once for every payment of a page that has it. */
    price: ReturnType<typeof presentPrice>;
    paymentToken?: string | null;
    /** From the books (`transfersOf`); none before the payment is paid. */
    transfers?: BookedTransfer[];
  },
) {
  const charge = currencyOf(row.chargeCurrency, "charge_currency");
  return {
    id: row.id,
    status: row.status,
    final_amount: formatAmount(row.chargeAmount, charge),
    amount_refunded: formatAmount(row.refundedAmount, charge),
    transfers: (context.transfers ?? []).filter((t) => t.paymentId === row.id).map(presentTransfer),
    payment_provider: row.method as "card" | "us_bank_account",
    trigger_data_input: {
      params_data_input: (row.triggerDataInput.params_data_input ?? {}) as Record<string, unknown>,
    },
    transaction_id: row.transactionId,
    transaction_url: row.transactionUrl,
    price_item: row.priceItem,
    transaction_response: { ...EMPTY_RESPONSE, ...row.transactionResponse } as never,
    confirmation_status: confirmationOf(row) as never,
    app: context.app,
    price: context.price,
    payment_token: context.paymentToken ?? null,
    next_action: row.nextAction ?? null,
    cancelable: isCancelable(row),
    shopper_email: row.shopperEmail,
    kyc_id: row.kycId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
