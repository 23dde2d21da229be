// Step 5, capture: a held card is charged (bank debits were collected when authorised).
//
// What it does: the settle job (`payments.settle`) captures the intent first, then goes on to
// transfer-to-seller, which moves the payment to `paid`. The capture moves no status itself: the
// payment is still `hold` (or `failed-captured`, `failed-transfers` on a retried settle) until the
// transfers are done, and `capturedAmount` says the money is taken.
// Compensation: refund. A captured payment is never un-captured; it is given back by a refund
// (the app's, or an auction's loser), never automatically.
// After a crash: one capture. The provider call is keyed `<payment>:capture`, so a settle job
// retried after dying between the provider's answer and the record captures again under the same
// key and is answered the same capture; the captured amount and its ledger entries commit
// together, and the ledger's capture transaction is keyed by the payment, so nothing is posted
// twice. A capture the provider cannot take now throws, and pg-boss retries the job with its
// back-off. Tested by test/payments/crash.test.ts ("capture-sent").
import type { Deps } from "../../../deps.ts";
import type { PaymentProvider } from "../../../platform/providers/payments/types.ts";
import { intentKey } from "../job-names.ts";
import type { PaymentRow } from "../lifecycle.ts";
import { recordCapture } from "../sql.ts";

/** Captures a held card, once; a collected bank debit (or a captured card) has nothing to capture. */
export async function capture(deps: Deps, provider: PaymentProvider, payment: PaymentRow): Promise<void> {
  if (payment.capturedAmount !== 0n || !payment.intentId) return;
  const intent = await provider.captureIntent(payment.intentId, undefined, {
    idempotencyKey: intentKey(payment, "capture"),
  });
  deps.faults.crashPoint("capture-sent");
  // The capture and its entries commit together, in one statement; a retried job captures again
  // under the same key and posts nothing twice (the capture's ledger transaction is keyed by the
  // payment).
  await recordCapture(deps.db, payment, intent.amountReceived, deps.now());
}
