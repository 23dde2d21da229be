// Step 5, capture: a held card is charged (bank debits were collected when authorised).
//
// What it does: the settle job (`payments.settle`; or the authorize job that held the payment,
// when nothing is to happen between) captures the intent first, then goes on to
// transfer-to-seller, which moves the payment to `paid`. The capture moves no status itself: the
// payment is still `hold` (or `failed-captured`, `failed-transfers` on a retried settle) until the
// transfers are done, and `capturedAmount` says the money is taken. With no transfer to make, the
// capture is recorded by the move to `paid` itself, in its one statement; when the authorize job
// settles the card it held, that statement records the hold too (`paidOnAuthorization`), and the
// card was charged by the authorising call (its intent made with automatic capture, open.ts).
// Compensation: refund. A captured payment is never un-captured; it is given back by a refund
// (the app's, or an auction's loser), never automatically.
// After a crash: one capture. The provider call is keyed `<payment>:capture`, so a settle job
// retried after dying between the provider's answer and the record captures again under the same
// key and is answered the same capture (so is an authorize job that settled itself); the captured
// amount and its ledger entries commit together (with the move to `paid`, or before the
// transfers), and the ledger's capture transaction is keyed by the payment, so nothing is posted
// twice. A capture the provider cannot take now throws, and pg-boss retries the job with its
// back-off. Tested by test/payments/crash.test.ts ("capture-sent").
import { sql } from "drizzle-orm";
import type { Deps } from "../../../deps.ts";
import type { PaymentProvider, ProviderIntent } from "../../../platform/providers/payments/types.ts";
import { type AuthorizeJob, intentKey } from "../job-names.ts";
import { moveUnlocked, type PaymentRow } from "../lifecycle.ts";
import { read } from "../rows.ts";
import { recordCapture } from "../sql.ts";
import { payments } from "../tables.ts";

/**
 * Whether the held payment's capture is asked for: with no contract call between, from the hold
 * itself (the authorize or settle job captures next), or, for a deferred payment (an auction's
 * bid), from the owner's `executePayment` on. The capture is a provider call a cancel cannot
 * stop, so such a hold is no longer cancelable: a cancel answered then could leave the card
 * charged for a cancelled payment, its release refused by the provider.
 */
export function captureAsked(
  payment: Pick<PaymentRow, "status" | "triggerId" | "deferExecution" | "executeAskedAt">,
): boolean {
  return (
    payment.status === "hold" &&
    !payment.triggerId &&
    (!payment.deferExecution || payment.executeAskedAt !== null)
  );
}

/**
 * Captures a held card at the provider, once; a collected bank debit (or a captured card) has
 * nothing to capture (undefined). Answers the amount taken, not yet recorded: the caller records it
 * with the move to `paid` when nothing stands between (one statement, `moveUnlocked` with the
 * capture's entries), or with `recordCapture` first.
 */
export async function captureAtProvider(
  deps: Deps,
  provider: PaymentProvider,
  payment: PaymentRow,
): Promise<bigint | undefined> {
  if (payment.capturedAmount !== 0n || !payment.intentId) return undefined;
  const intent = await provider.captureIntent(payment.intentId, undefined, {
    idempotencyKey: intentKey(payment, "capture"),
  });
  deps.faults.crashPoint("capture-sent");
  return intent.amountReceived;
}

/** Records a capture that `captureAtProvider` made, unless there was none. */
export async function recordCaptured(deps: Deps, payment: PaymentRow, captured: bigint | undefined) {
  // The capture and its entries commit together, in one statement; a retried job captures again
  // under the same key and posts nothing twice (the capture's ledger transaction is keyed by the
  // payment). Booked to the seller the payment names as it is written: a payout re-pointed since
  // the read (before the capture was recorded, so it moved nothing in the books) is read again.
  if (captured === undefined) return;
  let row = payment as PaymentRow | undefined;
  while (row && !(await recordCapture(deps.db, row, captured, deps.now())))
    row = await read(deps, payment.id);
}

/**
 * A card the authorize job just authorised (`intent`: charged at once, as the intent of a payment
 * that `settlesWithAuthorization` is made, or held), paid by that job with the payment's row
 * written once: a held card's capture first (keyed as every capture), then one statement that
 * moves the payment, still `pending` as the job read it for this confirm, through `hold` to
 * `paid`: both moves recorded and announced, the hold and the capture posted. Only for a payment
 * that `settlesWithAuthorization`. A capture the provider refuses now throws, the hold
 * recorded first (`recordHold`): the job's retry settles it like every held payment. Answers true
 * once paid; false, having written nothing, when the payment changed or more endpoints listen than
 * `moveUnlocked` made delivery ids for (the caller then records the hold and settles, the capture
 * answered again under its key).
 * After a crash between the capture and the statement, the job's retry is answered the same
 * authorisation and the same capture under their keys, and writes the statement then.
 */
export async function paidOnAuthorization(
  deps: Deps,
  payment: PaymentRow,
  intent: ProviderIntent,
  job: AuthorizeJob,
  recordHold: () => Promise<unknown>,
): Promise<boolean> {
  const held = { ...payment, intentId: payment.intentId ?? intent.id };
  const provider = deps.paymentProviders.byId(payment.providerId as "sandbox" | "stripe");
  // A card charged at once (`chargeAtOnce`) is captured already: nothing to ask.
  let captured = intent;
  if (intent.status !== "succeeded") {
    try {
      captured = await provider.captureIntent(held.intentId, undefined, {
        idempotencyKey: intentKey(held, "capture"),
      });
    } catch (error) {
      await recordHold();
      throw error;
    }
  }
  deps.faults.crashPoint("capture-sent");
  const paid = await moveUnlocked(
    deps,
    payment,
    "paid",
    {
      actor: "system",
      reason: "captured and transferred",
      through: { status: "hold", actor: job.actor, reason: "card authorised" },
      set: {
        intentId: held.intentId,
        authState: "done",
        nextAction: null,
        capturedAmount: captured.amountReceived,
        transactionResponse: { ...payment.transactionResponse, error: null },
      },
    },
    () => [],
    // This confirm's authorisation, nothing else since: not a later confirm's, not a webhook's.
    sql`${payments.authState} = 'requested' and ${payments.confirmAttempts} = ${job.attempt}`,
  );
  return paid !== undefined;
}
