import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Tx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/http/errors.ts";
import { newId } from "../../platform/ids.ts";
import type { LedgerEvent } from "../ledger/entries.ts";
import type { EventType } from "../webhooks/event-types.ts";
import { eventInStatement } from "../webhooks/events.ts";
import { eventsOfMove, paymentEventsInsert, paymentEventsInsertWhen } from "./books.ts";
import { sameSeller } from "./rows.ts";
import { moveAlone, type RecordedMove, recordMove } from "./sql.ts";
import { type PaymentStatus, type paymentEvents, payments } from "./tables.ts";

/** The only moves a payment can make (docs/payments.md, States); anything else is 409. */
export const TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = Object.freeze({
  // `hold` means the money is secured: a card authorised (or charged at once), or a bank debit
  // already collected.
  pending: ["hold", "paid", "failed", "cancelled"],
  hold: ["paid", "cancelled", "failed", "failed-captured"],
  // `-> failed` after collection: only a bank debit its bank returned (returns.ts, docs/payments.md).
  paid: ["refunded", "failed-transfers", "failed"],
  "failed-captured": ["refunded", "paid", "failed"],
  "failed-transfers": ["paid", "refunded", "failed"],
  // Only `retry` of a card payment whose contract call the chain refused (its hold released,
  // nothing charged): reopened for the shopper to pay again (pipeline/open.ts, docs/payments.md).
  failed: ["pending"],
  refunded: [],
  cancelled: [],
});

export function canMove(from: PaymentStatus, to: PaymentStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export type PaymentRow = typeof payments.$inferSelect;

/**
 * The payload of a `payment.<status>` event. Deliveries are not ordered (a retried `hold` can
 * arrive after `paid`), so each carries the status the payment reached and `sequence`, the
 * payment's count of status changes so far (1 for `pending`): the higher one is the later state.
 */
export function paymentEventData(
  id: string,
  status: PaymentStatus,
  previousStatus: PaymentStatus | null,
  reason: string,
  sequence?: number,
) {
  // Without `sequence`, the statement that writes the event adds it (`recordMove`).
  return { id, status, previous_status: previousStatus, reason, sequence };
}

/** The payment event row of a move `from` -> `to` (`from` null: the payment's creation). */
export function paymentEventRow(
  paymentId: string,
  from: PaymentStatus | null,
  to: PaymentStatus,
  why: { actor: string; reason: string },
  now: Date,
): typeof paymentEvents.$inferInsert {
  return {
    id: newId("pev"),
    paymentId,
    fromStatus: from,
    toStatus: to,
    actor: why.actor,
    reason: why.reason,
    createdAt: now,
  };
}

/**
 * Moves a payment from the status it was read in to `to`, inside the caller's transaction:
 * checks the move is allowed, updates only if nobody moved it meanwhile (the `status = from`
 * guard), records the event and emits `payment.<to>` to the app's webhooks. A `defer_execution`
 * payment (an auction bid) also tells its owner, `onDeferredPayment`, in the same transaction.
 * Answers the updated row.
 */
export async function transition(
  deps: Pick<Deps, "jobs" | "now" | "onDeferredPayment">,
  tx: Tx,
  payment: PaymentRow,
  to: PaymentStatus,
  why: { actor: string; reason: string; set?: Partial<PaymentRow> },
): Promise<PaymentRow> {
  const from = payment.status;
  if (!canMove(from, to)) {
    throw new AppError("invalid_state_transition", `A ${from} payment cannot become ${to}`);
  }
  const now = deps.now();
  const [updated] = await tx
    .update(payments)
    .set({ ...why.set, status: to, updatedAt: now })
    .where(and(eq(payments.id, payment.id), eq(payments.status, from)))
    .returning();
  if (!updated) {
    throw new AppError("invalid_state_transition", `The payment is no longer ${from}`);
  }
  // The rest of the move in one statement: its event and sequence, what it did to the money in
  // the books, and its webhook event, whose deliveries (if an endpoint listens) follow.
  const announced = eventInStatement(deps, {
    appId: payment.appId,
    type: `payment.${to}` as EventType,
    data: paymentEventData(payment.id, to, from, why.reason),
  });
  const { endpoints } = await recordMove(
    tx,
    paymentEventRow(payment.id, payment.status, to, why, now),
    paymentEventsInsert(tx, updated, eventsOfMove(payment, updated), now),
    announced,
  );
  await announced.deliver(tx, endpoints);
  if (updated.deferExecution) await deps.onDeferredPayment(tx, updated);
  return updated;
}

/**
 * `transition` for a caller that holds no lock and no transaction (a job that read the payment
 * before its provider call): the move and all it writes, with `jobs` (outbox parts), in one
 * statement (`moveAlone`), made only while the payment is still as it was read (its status, and
 * `unchanged`: whatever else of the row `why` was decided on). The webhook deliveries of its
 * events and their jobs are parts of that statement too, for the endpoints listening as it runs
 * (no more than the ids it made ready: `eventInStatement`'s `deliveries`). `why.post`: what the
 * books post besides the move's own (a capture recorded with it). `why.through`: a status the
 * payment passes through on its way to `to` without resting in it (a card held and captured by one
 * job): both moves are recorded, announced and posted, the row is written once. Answers the moved
 * row, or undefined, having written nothing: the caller then moves it as ever, in a transaction on
 * the locked row. Never for a deferred payment, whose owner is told in that transaction.
 */
export async function moveUnlocked(
  deps: Pick<Deps, "db" | "jobs" | "now">,
  payment: PaymentRow,
  to: PaymentStatus,
  why: {
    actor: string;
    reason: string;
    set?: Partial<PaymentRow>;
    post?: LedgerEvent[];
    through?: { status: PaymentStatus; actor: string; reason: string };
  },
  jobs: (when: SQL) => SQL[],
  unchanged: SQL = sql`true`,
): Promise<PaymentRow | undefined> {
  const from = payment.status;
  const now = deps.now();
  const set = { ...why.set, status: to, updatedAt: now };
  // What the books post is decided on the rows as each move leaves them (amounts never change).
  const after = { ...payment, ...set } as PaymentRow;
  const stops = why.through
    ? [
        { ...why.through, row: { ...after, status: why.through.status } },
        { row: after, actor: why.actor, reason: why.reason },
      ]
    : [{ row: after, actor: why.actor, reason: why.reason }];
  let before = payment;
  const moves: RecordedMove[] = [];
  const posted: LedgerEvent[] = [];
  for (const [i, { row, actor, reason }] of stops.entries()) {
    if (payment.deferExecution || !canMove(before.status, row.status)) return undefined;
    const announced = eventInStatement(deps, {
      appId: payment.appId,
      type: `payment.${row.status}` as EventType,
      data: paymentEventData(payment.id, row.status, before.status, reason),
    });
    const event = paymentEventRow(payment.id, before.status, row.status, { actor, reason }, now);
    moves.push({ event, announced, deliveries: announced.deliveries(`listening${i}`) });
    posted.push(...eventsOfMove(before, row));
    before = row;
  }
  const update = deps.db
    .update(payments)
    .set(set)
    .where(
      and(
        eq(payments.id, payment.id),
        eq(payments.status, from),
        // The books below name the seller as read.
        sameSeller(payment),
        unchanged,
        ...moves.map((m) => m.deliveries.fits),
      ),
    )
    .returning();
  // The relay is woken only when the move sent a job: a move that asks for none (the paid move
  // with no endpoint listening, a hold its authorize job settles itself) would wake it for an
  // empty outbox.
  let sent = false;
  const moved = await moveAlone(
    deps.db,
    update.getSQL(),
    moves,
    (when) => paymentEventsInsertWhen(after, [...posted, ...(why.post ?? [])], now, when),
    (when) => {
      const parts = jobs(when);
      sent = parts.length > 0;
      return parts;
    },
  );
  if (moved && (sent || moved.delivered > 0)) deps.jobs.relaySoon();
  return moved?.row;
}
