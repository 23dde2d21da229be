import { and, eq } from "drizzle-orm";
import type { Deps, PaymentFact } from "../../deps.ts";
import { newId } from "../../platform/ids.ts";
import type { JobDefinition } from "../../platform/jobs/index.ts";
import { formatAmountText } from "../../platform/money/amount.ts";
import { findCurrency } from "../../platform/money/currencies.ts";
import { emitEvent } from "../webhooks/events.ts";
import { paymentTotals, unbalancedTransactions } from "./sql.ts";
import { ledgerEntries, type Mismatch, reconciliations } from "./tables.ts";

export const RECONCILE_JOB = "ledger.reconcile";
/** Every day at 03:15 UTC every app with books is reconciled (pg-boss cron, UTC). */
export const RECONCILE_SCHEDULE = "15 3 * * *";
const PAGE = 200;

export interface ReconcileJob {
  /** Absent: the daily run, over every app with books. */
  appId?: string;
  runId?: string;
}

/** What the books say of each payment of a page: captured, refunds asked for and refunds made. */
async function booksOf(deps: Deps, paymentIds: string[]) {
  const rows = await paymentTotals(deps.db, paymentIds);
  const books = new Map<string, { captured: bigint; refunded: bigint; refundsMade: bigint }>();
  for (const r of rows) {
    books.set(r.paymentId ?? "", {
      captured: BigInt(r.captured),
      refunded: BigInt(r.refunded),
      refundsMade: BigInt(r.refundsMade),
    });
  }
  return books;
}

const DELIVERED = new Set(["paid", "failed-transfers"]);
const UNPAID = new Set(["cancelled", "failed", "pending"]);

/** The mismatches of one payment: books against its own record, its provider and its chain call. */
async function checkPayment(
  deps: Deps,
  fact: PaymentFact,
  book: { captured: bigint; refunded: bigint; refundsMade: bigint },
): Promise<Mismatch[]> {
  const found: Mismatch[] = [];
  const currency = findCurrency(fact.currency);
  const text = (minor: bigint) => (currency ? formatAmountText(minor, currency) : minor.toString());
  const add = (
    kind: string,
    ledger: bigint | string | null,
    other: bigint | string | null,
    message: string,
  ) =>
    found.push({
      kind,
      payment_id: fact.id,
      ledger: typeof ledger === "bigint" ? text(ledger) : ledger,
      other: typeof other === "bigint" ? text(other) : other,
      message,
    });
  const expectedCapture = fact.captured > 0n ? fact.total : 0n;
  if (book.captured !== expectedCapture) {
    add(
      "payment_capture",
      book.captured,
      fact.captured,
      "the books and the payment disagree on what was captured",
    );
  }
  if (book.refunded !== fact.refunded) {
    add(
      "payment_refunds",
      book.refunded,
      fact.refunded,
      "the books and the payment disagree on what was refunded",
    );
  }
  if (fact.intentId && (book.captured > 0n || book.refundsMade > 0n || fact.captured > 0n)) {
    try {
      const provider = deps.paymentProviders.byId(fact.providerId as "sandbox" | "stripe");
      const settled = await provider.settlement(fact.intentId);
      if (settled.captured !== book.captured) {
        add("provider_capture", book.captured, settled.captured, "the provider captured another amount");
      }
      if (settled.refunded !== book.refundsMade) {
        add("provider_refunds", book.refundsMade, settled.refunded, "the provider refunded another amount");
      }
    } catch (error) {
      add(
        "provider_unreadable",
        null,
        null,
        `the provider's record could not be read: ${(error as Error).message}`,
      );
    }
  }
  if (fact.triggerId && DELIVERED.has(fact.status) && !(fact.transactionId && fact.confirmed)) {
    add(
      "chain_unconfirmed",
      fact.status,
      fact.transactionId,
      "delivered, but its contract call is not confirmed",
    );
  }
  // A call the chain refused or dropped delivered nothing: the money it released is accounted for.
  const mayHaveLanded = fact.confirmed || !fact.chainFailed;
  if (fact.sent && mayHaveLanded && book.captured === 0n && UNPAID.has(fact.status)) {
    add(
      "chain_unaccounted",
      fact.status,
      fact.transactionId,
      "a contract call was sent for money the books do not hold",
    );
  }
  return found;
}

/** Compares an app's books with its payments, the provider and the chain; records and announces the result. */
export async function reconcileApp(deps: Deps, appId: string, runId: string) {
  const mismatches: Mismatch[] = (await unbalancedTransactions(deps.db, appId)).map((u) => ({
    kind: "unbalanced",
    payment_id: null,
    ledger: u.transactionId,
    other: u.currency,
    message: "a ledger transaction does not sum to zero",
  }));
  let checked = 0;
  let after: string | null = null;
  for (;;) {
    const facts = await deps.paymentFacts(deps.db, appId, after, PAGE);
    if (facts.length === 0) break;
    const books = await booksOf(
      deps,
      facts.map((f) => f.id),
    );
    for (const fact of facts) {
      const book = books.get(fact.id) ?? { captured: 0n, refunded: 0n, refundsMade: 0n };
      mismatches.push(...(await checkPayment(deps, fact, book)));
    }
    checked += facts.length;
    after = facts[facts.length - 1].id;
    if (facts.length < PAGE) break;
  }
  const status = mismatches.length === 0 ? "clean" : "mismatched";
  await deps.db.transaction(async (tx) => {
    await tx
      .update(reconciliations)
      .set({ status, paymentsChecked: checked, mismatches, finishedAt: deps.now() })
      .where(and(eq(reconciliations.id, runId), eq(reconciliations.appId, appId)));
    if (mismatches.length > 0) {
      await emitEvent(deps, tx, {
        appId,
        type: "reconciliation.mismatch",
        data: { id: runId, payments_checked: checked, mismatches },
      });
    }
  });
  if (mismatches.length > 0) {
    deps.logger.warn(
      { app_id: appId, reconciliation_id: runId, mismatches: mismatches.length },
      "books mismatch",
    );
  }
}

/** Starts a run inside the caller's transaction (or its own): the row and its job commit together. */
export async function startRun(deps: Deps, appId: string, trigger: "api" | "schedule") {
  return deps.db.transaction(async (tx) => {
    const [run] = await tx
      .insert(reconciliations)
      .values({ id: newId("rec"), appId, status: "running", trigger, createdAt: deps.now() })
      .returning();
    await deps.jobs.send<ReconcileJob>(tx, RECONCILE_JOB, { appId, runId: run.id });
    return run;
  });
}

export function reconcileJob(deps: Deps): JobDefinition<ReconcileJob> {
  return {
    name: RECONCILE_JOB,
    schedule: RECONCILE_SCHEDULE,
    async handle({ appId, runId }) {
      if (appId && runId) {
        await reconcileApp(deps, appId, runId);
        return;
      }
      // The daily run: one run (and job) per app that has books.
      const apps = await deps.db.selectDistinct({ appId: ledgerEntries.appId }).from(ledgerEntries);
      for (const { appId: app } of apps) await startRun(deps, app, "schedule");
    },
  };
}
