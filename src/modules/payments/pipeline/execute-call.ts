// Step 3, execute-call: the trigger's contract call, from the app's wallet, on money secured.
//
// What it does: `payments.execute` (`runChainStep`) renders and signs the call, stores the signed
// bytes on the payment (`signed_at`: from then on the app can no longer cancel), broadcasts them,
// records the sending and asks for await-confirmations. A price without a trigger skips the call
// and asks for the settle job. Runs on `hold`, and on `failed-captured` when the app retries.
// Compensation: `chainFailed`, beside it. A call that cannot succeed (refused by the node, reverted,
// dropped too often, no trigger or wallet left) releases a card hold (`hold -> cancelled`, or
// `hold -> failed` when the node refused it, for the app's retry to reopen) through release-hold,
// and leaves a collected bank debit `failed-captured` for the app to refund or retry.
// After a crash: exactly one transaction on the chain. The signed bytes are stored before anything
// is broadcast; a run that dies after signing, or after broadcasting but before recording, finds
// them on retry and broadcasts the same bytes, which the chain takes as the one transaction they
// are (signing again only once the chain says they can never land). `chainFailed` moves the
// payment and sends its release job in one transaction. Tested by test/payments/crash.test.ts.
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Deps } from "../../../deps.ts";
import type { PreparedCall, SentTransaction, SignedTransaction } from "../../../platform/chains/adapter.ts";
import { asSent, ChainError, isPermanentChainError, isSigned } from "../../../platform/chains/adapter.ts";
import type { Executor } from "../../../platform/db/index.ts";
import type { JobDefinition } from "../../../platform/jobs/index.ts";
import { appJoin, usesExplorer } from "../../apps/queries.ts";
import { priceJoin } from "../../prices/queries.ts";
import { triggerWithWallet, walletOfTrigger } from "../../triggers/for-payment.ts";
import { renderCall } from "../../triggers/render.ts";
import { CHECK_BALANCE_JOB } from "../../wallets/balance.ts";
import { decryptWalletSecret } from "../../wallets/secrets.ts";
import {
  CONFIRMATIONS_JOB,
  EXECUTE_JOB,
  type PaymentJob,
  RELEASE_HOLD_JOB,
  SETTLE_JOB,
} from "../job-names.ts";
import { type PaymentRow, transition } from "../lifecycle.ts";
import { toPreparedCall } from "../prepared-call.ts";
import { read } from "../rows.ts";
import { payments, type RecordedTransaction } from "../tables.ts";

// Failures the chain will answer the same way however often we ask: the call fails, no retry.
// (The adapters' codes the node refuses for good, `insufficient_funds` and the like, are
// `isPermanentChainError`'s: they end the step as `refused`, below.)
const FINAL_CHAIN_ERRORS = new Set([
  "rejected",
  "invalid_call",
  "bad_key",
  "missing_key",
  "missing_account",
  "wrong_chain",
  "wrong_network",
]);

async function context(deps: Deps, payment: PaymentRow) {
  const trigger = triggerWithWallet(payment.appId, payment.triggerId!);
  const price = priceJoin(payment.priceId);
  const app = appJoin(payment.appId);
  const [row] = await deps.db
    .select({ ...trigger.columns, price: price.columns, app: app.columns })
    .from(trigger.table)
    .innerJoin(trigger.wallet.table, trigger.wallet.on)
    .innerJoin(price.table, price.on)
    .innerJoin(app.table, app.on)
    .where(trigger.where);
  return row;
}

/**
 * How the chain step ended without a delivery. `refused`: the node refused the send for good (an
 * unfunded wallet, a contract that is not there, fee rules it always refuses), or kept failing past
 * the execute job's back-off, and nothing is on the chain: a card payment becomes `failed` and the
 * app's `retry` reopens it once the cause is fixed. Otherwise (reverted, dropped, or a call that
 * cannot be made) a card payment is `cancelled` as the interface says.
 */
interface ChainFailure {
  message: string;
  reason?: string;
  code?: string;
  refused?: boolean;
}

/**
 * The contract call failed: a held card is released; a collected bank debit is left to refund or
 * retry. The one place a chain failure moves the payment; `transaction_id` and the confirmations
 * seen stay recorded on it.
 */
export async function chainFailed(
  deps: Deps,
  paymentId: string,
  failure: ChainFailure,
  extra: { response?: Record<string, unknown>; confirmation?: Record<string, unknown> } = {},
) {
  const { refused = false, ...error } = failure;
  await deps.db.transaction(async (tx) => {
    const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for("update");
    if (payment?.status !== "hold" && payment?.status !== "failed-captured") return;
    const wallet = await walletOf(tx, payment);
    const recorded = {
      ...error,
      step: "chain",
      // `retryable`: the app's `retry` runs the payment again once the cause is fixed.
      ...(refused
        ? { wallet_id: wallet?.id ?? null, wallet_address: wallet?.accountId ?? null, retryable: true }
        : {}),
    };
    const set = {
      transactionResponse: { ...payment.transactionResponse, ...extra.response, error: recorded },
      ...(extra.confirmation ? { confirmationStatus: extra.confirmation } : {}),
      sentTransaction: null,
    };
    const why = { actor: "system", reason: `contract call failed: ${error.message}`, set };
    if (refused && wallet) await deps.jobs.send(tx, CHECK_BALANCE_JOB, { walletId: wallet.id });
    if (refused) {
      // The wallet's owner has something to fix (fund it, deploy the contract): said where they look.
      deps.logger.warn(
        {
          payment_id: payment.id,
          app_id: payment.appId,
          wallet_id: wallet?.id,
          wallet_address: wallet?.accountId,
          chain: wallet?.type,
          code: error.code,
        },
        `the chain refused the contract call from wallet ${wallet?.accountId ?? "?"}: ${error.message}`,
      );
    }
    if (payment.status === "failed-captured") {
      // A retried call after collection failed again: the money stays collected, the error says why.
      await tx
        .update(payments)
        .set({ ...set, updatedAt: deps.now() })
        .where(eq(payments.id, paymentId));
    } else if (payment.capturedAmount === 0n) {
      await transition(deps, tx, payment, refused ? "failed" : "cancelled", why);
      await deps.jobs.send<PaymentJob>(tx, RELEASE_HOLD_JOB, {
        paymentId,
        intentId: payment.intentId ?? undefined,
      });
    } else {
      await transition(deps, tx, payment, "failed-captured", why);
    }
  });
}

export async function walletOf(tx: Executor, payment: PaymentRow) {
  if (!payment.triggerId) return undefined;
  return walletOfTrigger(tx, payment.triggerId);
}

/** The last try of a transient failure (node down, rate limited): the step ends as refused. */
function gaveUp(error: unknown): ChainFailure {
  const chain = error instanceof ChainError ? error : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return {
    message: `${message} (gave up after ${EXECUTE_RETRY_LIMIT + 1} tries; retry the payment)`,
    reason: chain?.reason,
    code: chain?.code ?? "send_failed",
    refused: true,
  };
}

/** A ChainError as the payment records it; `refused` when the node refuses it for good. */
function failureOf(error: ChainError): ChainFailure {
  return {
    message: error.message,
    reason: error.reason,
    code: error.code,
    refused: isPermanentChainError(error.code),
  };
}

/** pg-boss's retries of the execute job (its back-off: about 13 minutes in all) before the step ends. */
export const EXECUTE_RETRY_LIMIT = 8;

/** A dropped transaction can never land, so the call is signed and sent again: this many sendings in all. */
export const MAX_CHAIN_SENDINGS = 3;

/**
 * Runs the trigger's contract call from the app's wallet, or, for a price without a trigger,
 * settles at once. Exactly once across crashes: the call is signed and the signed bytes are stored
 * before anything leaves, then broadcast, then recorded as sent. A run that dies anywhere in between
 * finds the stored bytes on retry and broadcasts those same bytes, which the chain takes as the one
 * transaction they are; it signs again only when the chain says those bytes can never land.
 */
export async function runChainStep(
  deps: Deps,
  payment: PaymentRow,
  sending = 1,
  lastTry = false,
): Promise<void> {
  if (!payment.triggerId) {
    await deps.db.transaction(async (tx) => {
      await deps.jobs.send<PaymentJob>(tx, SETTLE_JOB, { paymentId: payment.id });
    });
    return;
  }
  const recorded = payment.sentTransaction;
  if (recorded && !isSigned(recorded) && payment.status === "hold") {
    // Broadcast and recorded already (this job ran before and died after recording): follow it.
    await deps.db.transaction((tx) =>
      deps.jobs.send<PaymentJob>(tx, CONFIRMATIONS_JOB, { paymentId: payment.id }),
    );
    return;
  }
  const signed =
    recorded && isSigned(recorded) ? recorded : await signAndStore(deps, payment, recorded, sending, lastTry);
  if (!signed) return;
  const adapter = deps.chains.adapter(signed.chain, signed.network);
  let sent: SentTransaction;
  try {
    sent = await adapter.broadcast(signed);
  } catch (error) {
    if (error instanceof ChainError && error.code === "stale") {
      // These bytes can never land: forget them, and the retry signs the call again.
      await compareAndSet(deps.db, deps, payment.id, signed, null);
      throw error;
    }
    if (error instanceof ChainError && FINAL_CHAIN_ERRORS.has(error.code)) {
      return chainFailed(deps, payment.id, { message: error.message, reason: error.reason });
    }
    if (error instanceof ChainError && isPermanentChainError(error.code)) {
      adapter.discard(signed);
      return chainFailed(deps, payment.id, failureOf(error));
    }
    // The node is unreachable or busy: the job retries with its back-off, and its last try ends
    // the step, unless the chain has the bytes after all (a timed-out send that did arrive).
    if (!lastTry) throw error;
    const landed = await adapter.status(asSent(signed, deps.now())).catch(() => undefined);
    if (!landed) throw error; // the chain cannot be asked either: the call may be out, so no release
    if (landed.state === "dropped" || (landed.state === "pending" && landed.stage === "unknown")) {
      adapter.discard(signed);
      return chainFailed(deps, payment.id, gaveUp(error));
    }
    sent = asSent(signed, new Date(signed.sentAt));
  }
  deps.faults.crashPoint("chain-call-sent");
  await deps.db.transaction(async (tx) => {
    const explorer = await usesExplorer(tx, payment.appId);
    const stored: RecordedTransaction = { ...sent, sending: (signed as RecordedTransaction).sending };
    await tx
      .update(payments)
      .set({
        sentTransaction: stored,
        transactionId: sent.transactionId,
        transactionUrl: explorer ? adapter.explorerUrl(sent.transactionId) : null,
        updatedAt: deps.now(),
      })
      .where(eq(payments.id, payment.id));
    await deps.jobs.send<PaymentJob>(tx, CONFIRMATIONS_JOB, { paymentId: payment.id }, { startAfter: 1 });
  });
}

/**
 * Renders and signs the call, and stores the signed bytes if nothing else was stored since
 * `recorded` was read. Answers null when the call failed (recorded as such) or another run of this
 * step stored its own bytes first, which that run broadcasts.
 */
async function signAndStore(
  deps: Deps,
  payment: PaymentRow,
  recorded: RecordedTransaction | null,
  sending: number,
  lastTry: boolean,
): Promise<SignedTransaction | null> {
  const found = await context(deps, payment);
  if (!found) {
    await chainFailed(deps, payment.id, { message: "the trigger or its wallet no longer exists" });
    return null;
  }
  const { trigger, wallet, price } = found;
  let call: PreparedCall;
  try {
    const input = (payment.triggerDataInput.params_data_input ?? {}) as Record<string, unknown>;
    call = toPreparedCall(await renderCall(trigger, wallet, input, "/trigger_data_input/params_data_input"));
  } catch (error) {
    await chainFailed(deps, payment.id, { message: error instanceof Error ? error.message : String(error) });
    return null;
  }
  const secret = await decryptWalletSecret(deps, wallet.id);
  const adapter = deps.chains.adapter(wallet.type, price.networkType);
  let signed: SignedTransaction & { sending: number };
  try {
    const bytes = await adapter.sign(call, {
      privateKey: secret.secret,
      accountId: secret.accountId,
      permission: secret.permission ?? undefined,
      networkId: secret.networkId,
    });
    signed = { ...bytes, sending };
  } catch (error) {
    if (error instanceof ChainError && FINAL_CHAIN_ERRORS.has(error.code)) {
      await chainFailed(deps, payment.id, { message: error.message, reason: error.reason });
      return null;
    }
    // Nothing was signed, so nothing can be out: a permanent refusal, or the last try, ends here.
    if (error instanceof ChainError && (lastTry || isPermanentChainError(error.code))) {
      await chainFailed(deps, payment.id, lastTry ? gaveUp(error) : failureOf(error));
      return null;
    }
    throw error;
  }
  if (!(await compareAndSet(deps.db, deps, payment.id, recorded, signed))) {
    adapter.discard(signed);
    return null;
  }
  deps.faults.crashPoint("chain-call-signed");
  return signed;
}

/** Replaces the stored transaction only if it is still `expected` (by id), for a payment still running its call. */
export async function compareAndSet(
  db: Executor,
  deps: Deps,
  paymentId: string,
  expected: RecordedTransaction | null,
  next: RecordedTransaction | null,
): Promise<boolean> {
  const stored = expected
    ? sql`${payments.sentTransaction}->>'transactionId' = ${expected.transactionId}`
    : isNull(payments.sentTransaction);
  // Signed bytes stored: from this statement on the call may leave, so the payment records it
  // (`signed_at`, kept once set, and the transaction's id) and the app can no longer cancel it.
  const signed = next
    ? { signedAt: sql`coalesce(${payments.signedAt}, now())`, transactionId: next.transactionId }
    : {};
  const updated = await db
    .update(payments)
    .set({ sentTransaction: next, ...signed, updatedAt: deps.now() })
    .where(and(eq(payments.id, paymentId), inArray(payments.status, ["hold", "failed-captured"]), stored))
    .returning({ id: payments.id });
  return updated.length === 1;
}

/** The money is secured: run the trigger's contract call, or settle at once when there is none. */
export function executeJob(deps: Deps): JobDefinition<PaymentJob> {
  return {
    name: EXECUTE_JOB,
    retryLimit: EXECUTE_RETRY_LIMIT,
    async handle({ paymentId, sending }, meta) {
      const payment = await read(deps, paymentId);
      if (!payment || (payment.status !== "hold" && payment.status !== "failed-captured")) return;
      await runChainStep(deps, payment, sending, meta.retryCount >= EXECUTE_RETRY_LIMIT);
    },
  };
}
