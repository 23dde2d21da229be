// Step 4, await-confirmations: the contract call is followed until the chain's answer is final.
//
// What it does: `payments.confirmations` (`followChainCall`) reads the sent transaction's status,
// records the confirmations seen (`confirmation_status`), and looks again after about a block's
// time; once the call is confirmed it asks for the settle job (capture, then transfer-to-seller)
// and a fresh read of the wallet's balance. A transaction the chain dropped is forgotten and
// execute-call signs and sends it again, up to `MAX_CHAIN_SENDINGS` sendings in all. A bank debit
// returned while its call was out is followed too (`followsItsCall`): its answer is recorded, never
// settled from, and a dropped call is not sent again.
// Compensation: `chainFailed` (execute-call.ts). A reverted call, or one dropped on its last
// sending, releases a card hold (`hold -> cancelled`) or leaves a collected debit `failed-captured`.
// After a crash: it only reads the chain, and each look commits what it saw together with the
// next job (the next look, the settle job, or the next sending), so a look cut short is looked
// again; a dropped transaction is forgotten only if it is still the one stored, so two runs never
// both send again.
import { and, eq } from "drizzle-orm";
import type { Deps } from "../../../deps.ts";
import { isSigned } from "../../../platform/chains/adapter.ts";
import { confirmationStatus, transactionResponse } from "../../../platform/chains/present.ts";
import type { JobDefinition } from "../../../platform/jobs/index.ts";
import { CHECK_BALANCE_JOB } from "../../wallets/balance.ts";
import { CONFIRMATIONS_JOB, EXECUTE_JOB, type PaymentJob, SETTLE_JOB } from "../job-names.ts";
import type { PaymentRow } from "../lifecycle.ts";
import { returnedAfterCollection } from "../returns.ts";
import { read } from "../rows.ts";
import { payments } from "../tables.ts";
import { chainFailed, compareAndSet, MAX_CHAIN_SENDINGS, walletOf } from "./execute-call.ts";

/**
 * Whose contract call is followed: a payment running it (`hold`, or `failed-captured` retried by
 * the app), and a bank debit its bank took back while the call was out, whose call may still land:
 * the chain's answer is recorded on it (the app learns what was delivered), nothing is settled
 * from it and nothing is sent again.
 */
function followsItsCall(payment: PaymentRow): boolean {
  return (
    payment.status === "hold" || payment.status === "failed-captured" || returnedAfterCollection(payment)
  );
}

/** Counts confirmations until the call is final, then settles; a failed or dropped call fails the step. */
export async function followChainCall(deps: Deps, payment: PaymentRow): Promise<void> {
  const sent = payment.sentTransaction;
  if (!sent || isSigned(sent)) return;
  const adapter = deps.chains.adapter(sent.chain, sent.network);
  const status = await adapter.status(sent);
  const response = transactionResponse(sent.chain, status);
  const sending = sent.sending ?? 1;
  if (returnedAfterCollection(payment) && (status.state === "failed" || status.state === "dropped")) {
    // The money went back with the return: the call is not sent again; what the chain said stays.
    await deps.db
      .update(payments)
      .set({
        transactionResponse: { ...payment.transactionResponse, [sent.chain]: response[sent.chain] },
        confirmationStatus: confirmationStatus(status),
        updatedAt: deps.now(),
      })
      .where(and(eq(payments.id, payment.id), eq(payments.status, "failed")));
    return;
  }
  if (status.state === "dropped" && sending < MAX_CHAIN_SENDINGS) {
    // It never landed and never will: forget it, and the call is signed and sent again.
    await deps.db.transaction(async (tx) => {
      if (await compareAndSet(tx, deps, payment.id, sent, null)) {
        await deps.jobs.send<PaymentJob>(tx, EXECUTE_JOB, { paymentId: payment.id, sending: sending + 1 });
      }
    });
    return;
  }
  if (status.state === "failed" || status.state === "dropped") {
    const error = status.error ?? {
      message: status.state === "dropped" ? "the transaction was dropped" : "the call failed",
    };
    return chainFailed(deps, payment.id, error, {
      response: { [sent.chain]: response[sent.chain] },
      confirmation: confirmationStatus(status),
    });
  }
  await deps.db.transaction(async (tx) => {
    const [current] = await tx.select().from(payments).where(eq(payments.id, payment.id)).for("update");
    if (!current || !followsItsCall(current)) return;
    await tx
      .update(payments)
      .set({
        confirmationStatus: confirmationStatus(status),
        // A returned debit keeps the bank's reason as its error, whatever the chain says.
        transactionResponse: returnedAfterCollection(current)
          ? { ...current.transactionResponse, [sent.chain]: response[sent.chain] }
          : { ...current.transactionResponse, ...response },
        updatedAt: deps.now(),
      })
      .where(eq(payments.id, payment.id));
    if (status.state === "confirmed") {
      if (!returnedAfterCollection(current)) {
        await deps.jobs.send<PaymentJob>(tx, SETTLE_JOB, { paymentId: payment.id });
      }
      // The wallet just paid for gas: its balance is read afresh (`wallet.balance_low`, wallets).
      const wallet = await walletOf(tx, current);
      if (wallet) await deps.jobs.send(tx, CHECK_BALANCE_JOB, { walletId: wallet.id });
    } else {
      const wait = Math.max(1, Math.min(30, Math.round(status.averageSeconds || 1)));
      await deps.jobs.send<PaymentJob>(
        tx,
        CONFIRMATIONS_JOB,
        { paymentId: payment.id },
        { startAfter: wait },
      );
    }
  });
}

export function confirmationsJob(deps: Deps): JobDefinition<PaymentJob> {
  return {
    name: CONFIRMATIONS_JOB,
    async handle({ paymentId }) {
      const payment = await read(deps, paymentId);
      if (!payment || !followsItsCall(payment)) return;
      await followChainCall(deps, payment);
    },
  };
}
