import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import {
  type Database,
  type DatabaseHandle,
  drizzleRunner,
  type Executor,
  insertRow,
  prepared,
  rowOf,
  statementRunner,
  withValues,
} from "../../platform/db/index.ts";
import { appForPayment, appVersionOf, roleForPayment, userMayAct } from "../apps/for-payment.ts";
import { sellerForPayment } from "../kyc/for-payment.ts";
import { priceForPayment, priceOpenAt, priceViewsOf } from "../prices/for-payment.ts";
import type { EventInStatement } from "../webhooks/events.ts";
import { enabledEndpoints } from "../webhooks/for-payment.ts";
import { paymentEventsInsertWhen } from "./books.ts";
import type { PaymentRow } from "./lifecycle.ts";
import { sameSeller } from "./rows.ts";
import { type PaymentStatus, paymentEvents, payments } from "./tables.ts";

/*
 * Payments' statements that hold hand-written SQL, one named function each, as pg-boss keeps its
 * SQL in `plans.ts`: each builds its statement (or runs it on the executor it is given) and leaves
 * what the rows mean to its caller. So far the create's context (context.ts), the money in
 * flight (open-money.ts), what a status change writes besides its row (lifecycle.ts) and a
 * capture's record (pipeline/capture.ts); the create's write and the rest of the lifecycle's
 * statements are still beside their callers.
 */

/** Who asks for which price: the three values the context's statement is filtered by, as SQL. */
interface Given {
  appId: SQL;
  priceId: SQL;
  /** The calling user; null for API keys and shoppers (their role does not come from members). */
  userId: SQL;
}

/**
 * The payment context's statement, its parts defined by the modules that own their tables: the
 * app with its creator, the price with its trigger and wallet, the caller's role, the price's
 * seller's standing and the app's webhook endpoints, and `version`, which a change to any of
 * those rows changes (`appForPayment`), for the write's guard (`contextUnchanged`).
 */
function contextStatement(db: Database, given: Given) {
  const app = appForPayment(given.appId);
  const price = priceForPayment(app.id, given.priceId);
  const [priceJoin, triggerJoin, walletJoin] = price.joins;
  return db
    .select({
      ...app.columns,
      role: roleForPayment(app.id, given.userId),
      ...price.columns,
      // Whether the seller can receive transfers is decided on this (`sellerStanding`).
      seller: sellerForPayment(app.id, price.sellerId),
      endpoints: enabledEndpoints(app.id),
      version: app.version,
    })
    .from(app.table)
    .innerJoin(app.creator.table, app.creator.on)
    .leftJoin(priceJoin.table, priceJoin.on)
    .leftJoin(triggerJoin.table, triggerJoin.on)
    .leftJoin(walletJoin.table, walletJoin.on)
    .where(app.where);
}

/**
 * The context read, as a prepared statement named `payment_context`; its placeholders `app_id`,
 * `price_id` and `user_id` are given when it runs. Build it once per database (`prepared`).
 */
export const paymentContextRead = (db: Database) =>
  contextStatement(db, {
    appId: sql`${sql.placeholder("app_id")}`,
    priceId: sql`${sql.placeholder("price_id")}`,
    userId: sql`${sql.placeholder("user_id")}`,
  }).prepare("payment_context");

/** The statuses a payment with money in flight can have (`openMoneyCounts`). */
const OPEN_STATUSES: readonly PaymentStatus[] = ["pending", "hold", "failed-captured", "failed-transfers"];

/**
 * The payments with money in flight, counted per kind (open-money.ts says what each kind means
 * and what ends it): an app's (`{appId}`), or those whose seller share goes to one seller record
 * (`{kycId}`). One row.
 */
export function openMoneyCounts(db: Executor, scope: { appId: string } | { kycId: string }) {
  const owner = "appId" in scope ? eq(payments.appId, scope.appId) : eq(payments.kycId, scope.kycId);
  const counted = (condition: SQL) => sql<number>`(count(*) filter (where ${condition}))::int`;
  const bid = payments.deferExecution;
  return db
    .select({
      pending: counted(sql`${payments.status} = 'pending' and not ${bid} and ${payments.authState} = 'none'`),
      processing: counted(
        sql`${payments.status} = 'pending' and not ${bid} and ${payments.authState} <> 'none'`,
      ),
      hold: counted(sql`${payments.status} = 'hold' and not ${bid}`),
      bids_on_hold: counted(sql`${payments.status} in ('pending', 'hold') and ${bid}`),
      failed_captured: counted(sql`${payments.status} = 'failed-captured'`),
      failed_transfers: counted(sql`${payments.status} = 'failed-transfers'`),
    })
    .from(payments)
    .where(and(owner, inArray(payments.status, OPEN_STATUSES)));
}

/**
 * What every status change writes besides the payment's row, as parts of one `with`: its event,
 * with its sequence number (the payment's events before it, plus one), and the webhook event it
 * announces, whose payload the statement completes with that sequence (`announced`, webhooks'
 * `eventInStatement`). With `when`, each is written only if `when` holds.
 */
function moveParts(
  event: typeof paymentEvents.$inferInsert,
  announced: Pick<EventInStatement, "insert">,
  when?: SQL,
): SQL[] {
  return [
    sql`sequence as (select (select count(*)::int from ${paymentEvents} where ${paymentEvents.paymentId} = ${event.paymentId}) + 1 as n)`,
    sql`added as (${insertRow(paymentEvents, event, when)})`,
    sql`announced as (${announced.insert(sql`jsonb_build_object('sequence', (select n from sequence))`, when)})`,
  ];
}

/** `parts` named `w0`, `w1`... after `named`, joined into one statement's `with` list. */
function withList(named: SQL[], parts: SQL[]): SQL {
  const rest = parts.map((part, i) => sql`${sql.identifier(`w${i}`)} as (${part})`);
  return sql.join([...named, ...rest], sql`,\n`);
}

/**
 * What a status change writes besides the payment's row, in one statement (`moveParts`, and its
 * ledger entries, `entries`, when the move moved money). Answers the sequence and what
 * `announced.endpoints` read. Run it after the payment's row is updated in the same transaction:
 * that row lock serialises the payment's transitions, so no other can share the number. The count
 * reads the statement's snapshot, which holds the transaction's earlier events but not this one.
 */
export async function recordMove(
  tx: Executor,
  event: typeof paymentEvents.$inferInsert,
  entries: SQL | undefined,
  announced: Pick<EventInStatement, "insert" | "endpoints">,
): Promise<{ sequence: number; endpoints: { id: string; events: string[] }[] }> {
  const parts = withList(moveParts(event, announced), entries ? [entries] : []);
  const [row] = await drizzleRunner(tx)(
    sql`with ${parts}\nselect (select n from sequence) as sequence, ${announced.endpoints} as endpoints`,
  );
  return { sequence: Number(row.sequence), endpoints: row.endpoints as { id: string; events: string[] }[] };
}

/** One status change a statement records: its payment event and the webhook event it announces. */
export interface RecordedMove {
  event: typeof paymentEvents.$inferInsert;
  announced: Pick<EventInStatement, "insert">;
  /** The webhook event's deliveries, when the statement writes them itself (`moveAlone`). */
  deliveries: ReturnType<EventInStatement["deliveries"]>;
}

/**
 * A status change and everything it writes, in one statement without a transaction: `update` (the
 * payment's, a Drizzle update whose `where` holds the move's guard, with `returning()`; it may read
 * each move's `deliveries.listening`), and only with it `moveParts` of each of `moves` (one, or a
 * move through a status the row never rests in: their sequences follow each other) with their
 * webhook deliveries and jobs, its ledger entries and `jobs` (outbox parts). Answers the moved row
 * and how many deliveries were written, or undefined when the guard did not hold, having written
 * nothing.
 */
export async function moveAlone(
  db: Database,
  update: SQL,
  moves: RecordedMove[],
  entries: (when: SQL) => SQL[],
  jobs: (when: SQL) => SQL[],
): Promise<{ row: PaymentRow; delivered: number } | undefined> {
  const when = sql`exists (select 1 from moved)`;
  const [first, ...later] = moves;
  const laterParts = later.flatMap(({ event, announced }, i) => [
    sql`${insertRow(paymentEvents, event, when)}`,
    announced.insert(
      sql`jsonb_build_object('sequence', (select n from sequence) + ${sql.raw(String(i + 1))})`,
      when,
    ),
  ]);
  const parts = withList(
    [
      ...moves.map((move) => move.deliveries.listening),
      sql`moved as (${update})`,
      ...moveParts(first.event, first.announced, when),
      ...moves.flatMap((move) => move.deliveries.writes(when)),
    ],
    [...laterParts, ...entries(when), ...jobs(when)],
  );
  const delivered = sql.join(
    moves.map((move) => move.deliveries.written),
    sql` + `,
  );
  const [row] = await drizzleRunner(db)(
    sql`with ${parts}\nselect moved.*, ${delivered} as deliveries_written from moved`,
  );
  return row ? { row: rowOf(payments, row), delivered: Number(row.deliveries_written) } : undefined;
}

/**
 * A capture's record, in one statement: the captured amount on the payment and the capture's
 * ledger entries (which the books key by the payment, so a repeat posts nothing). One round trip
 * instead of a transaction of four. Only while the payment names the seller it was read with
 * (`sameSeller`): false, having written nothing, otherwise.
 */
export async function recordCapture(db: Database, payment: PaymentRow, captured: bigint, at: Date) {
  const update = db
    .update(payments)
    .set({ capturedAmount: captured })
    .where(and(eq(payments.id, payment.id), sameSeller(payment)))
    .returning({ id: payments.id });
  const when = sql`exists (select 1 from captured)`;
  const entries = paymentEventsInsertWhen(payment, [{ type: "capture" }], at, when);
  const parts = withList([sql`captured as (${update.getSQL()})`], entries);
  const [row] = await drizzleRunner(db)(sql`with ${parts}\nselect count(*)::int as written from captured`);
  return Number(row.written) > 0;
}

/**
 * The confirm's update with placeholders, built once per database (`prepared`) and given its values
 * by `withValues`: building it through Drizzle's query builder on every confirm was a fifth of a
 * confirm's CPU (docs/benchmarks.md, seventh session: "The confirm's update, built once"). The
 * constants are in its text, since a template holds no values.
 */
const requestUpdate = (db: Database) =>
  db
    .update(payments)
    .set({
      authState: sql`'requested'`,
      confirmAttempts: sql`${sql.placeholder("attempt")}`,
      confirmKey: sql`${sql.placeholder("key")}`,
      updatedAt: sql`${sql.placeholder("at")}`,
    })
    .where(
      and(
        eq(payments.id, sql.placeholder("id")),
        // Not `=`: a generic plan of this prepared statement may then find the row through an
        // index that starts with `app_id` and filter every payment of the app by id (1.3 ms a
        // confirm at 3,000 payments, growing with them; docs/benchmarks.md, twenty-second session).
        // `is not distinct from` is never an index condition: the row is found by its key alone.
        sql`${payments.appId} is not distinct from ${sql.placeholder("app_id")}::text`,
        eq(payments.status, sql`'pending'`),
        eq(payments.authState, sql`'none'`),
        eq(payments.confirmAttempts, sql.placeholder("previous")),
        priceOpenAt(payments.priceId, sql`${sql.placeholder("at")}`),
        // Raw test numbers are exchanged for a sandbox payment method only for a sandbox payment
        // of their kind; null when the caller checked that on the row it read, or sent a token.
        sql`(${sql.placeholder("method")}::text is null or (${payments.providerId} = 'sandbox' and ${payments.method} = ${sql.placeholder("method")}::text))`,
        // The user whose role must let them edit the app's payments; null when the caller checked
        // it already, or for the app's own key.
        sql`(${sql.placeholder("editor")}::text is null or ${userMayAct(sql`${payments.appId}`, sql`${sql.placeholder("editor")}::text`, "edit")})`,
      ),
    )
    .returning()
    .getSQL();

/** What a confirm's request is made on: the payment, as its caller knows it. */
export interface RequestTarget {
  id: string;
  appId: string;
  /** Its confirms so far: the request is made only while there are still this many. */
  attempts: number;
  /** The payment method kind raw numbers name, when the caller has not checked the row takes it. */
  method: string | null;
  /** The user who asks, when the caller has not checked that their role lets them edit payments. */
  editor: string | null;
}

/**
 * A confirm's request in one statement, while the payment is as its caller knows it (`target`:
 * `pending` in app `appId`, no authorisation asked yet, `attempts` confirms so far, paid by
 * `method` in the sandbox when that is given, `editor` allowed to edit it when given) and its
 * price can still be paid at `at`: the payment marked `requested` with its attempt and
 * Idempotency-Key, and `writes` with it (the authorize job's outbox row, a `sendPart` given the
 * condition). Answers the updated row with what says whether a remembered answer context holds
 * (its app's `version`, its price's `views`: reads.ts), or undefined, having written nothing, when
 * any of that did not hold: the caller then decides on the locked row (a replay, another confirm
 * first, an expired price, a payment of another app or none). Sent as a named prepared statement
 * (`statementRunner`), as the create is.
 */
export async function requestWhileOpen(
  database: DatabaseHandle,
  target: RequestTarget,
  request: { key: string | null; at: Date },
  writes: (when: SQL) => SQL[],
): Promise<{ payment: PaymentRow; version: string; views: number } | undefined> {
  const update = withValues(prepared(database.db, "payments.request_while_open", requestUpdate), {
    id: target.id,
    app_id: target.appId,
    attempt: target.attempts + 1,
    previous: target.attempts,
    method: target.method,
    editor: target.editor,
    key: request.key,
    at: request.at,
  });
  const parts = withList([sql`updated as (${update})`], writes(sql`exists (select 1 from updated)`));
  const [row] = await statementRunner(database)(
    sql`with ${parts}\nselect updated.*, ${appVersionOf(sql`updated.app_id`)} as answer_version,
      ${priceViewsOf(sql`updated.price_id`)} as answer_views from updated`,
  );
  if (!row) return undefined;
  return {
    payment: rowOf(payments, row),
    version: String(row.answer_version),
    views: Number(row.answer_views),
  };
}
