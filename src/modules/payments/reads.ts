import { and, eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { hashToken } from "../../platform/auth/secrets.ts";
import type { Executor, Tx } from "../../platform/db/index.ts";
import { appRecord } from "../../platform/http/app-record.ts";
import { notFound } from "../../platform/http/errors.ts";
import { type Page, pageOfSelect } from "../../platform/http/pagination.ts";
import { requireAppRole } from "../apps/access.ts";
import { getApp } from "../apps/service.ts";
import { transfersOf } from "../ledger/reads.ts";
import { findPrice, priceJoin } from "../prices/queries.ts";
import type { PaymentRow } from "./lifecycle.ts";
import { openPaymentToken } from "./payment-token.ts";
import { presentPayment } from "./presenters.ts";
import type { PaymentFilters } from "./schemas.ts";
import { filterConditions } from "./search.ts";
import { payments } from "./tables.ts";

// Reading payments: one, a page of them, and the one a shopper's page token names.

/** Whether the books can hold transfers of the payment: the ledger is read only then. */
const hasTransfers = (row: PaymentRow) => Object.keys(row.transfers).length > 0;

/** A payment as the app's own credentials read it: with its payment token. */
export async function present(deps: Deps, actor: Principal, row: PaymentRow) {
  const [app, price, transfers] = await Promise.all([
    getApp(deps, actor, row.appId),
    findPrice(deps.db, row.priceId),
    hasTransfers(row) ? transfersOf(deps.db, [row.id]) : [],
  ]);
  if (!price) throw new Error(`Payment ${row.id} lost its price`);
  return presentPayment(row, {
    app,
    price,
    transfers,
    now: deps.now(),
    paymentToken: openPaymentToken(deps.custody, row),
  });
}

export async function loadPayment(db: Deps["db"] | Tx, appId: string, paymentId: string, lock = false) {
  return appRecord(db, payments, appId, paymentId, "Payment", lock ? "update" : undefined);
}

export async function getPayment(deps: Deps, actor: Principal, appId: string, paymentId: string) {
  await requireAppRole(deps.db, actor, appId, "view");
  return present(deps, actor, await loadPayment(deps.db, appId, paymentId));
}

export async function listPayments(
  deps: Deps,
  actor: Principal,
  appId: string,
  page: Page,
  filters: PaymentFilters,
) {
  await requireAppRole(deps.db, actor, appId, "view");
  const where = and(eq(payments.appId, appId), ...filterConditions(filters));
  // A list tolerates a replica's lag (DATABASE_REPLICA_URL); the role check above reads the primary.
  const reader = { db: deps.lagging, config: deps.config };
  const price = priceJoin(payments.priceId);
  const [{ rows, total, neighbours }, app] = await Promise.all([
    pageOfSelect(
      reader,
      page,
      { table: payments, scope: eq(payments.appId, appId), filter: where, newestFirst: true },
      reader.db
        .select({ payment: payments, price: price.columns })
        .from(payments)
        .innerJoin(price.table, price.on)
        .$dynamic(),
      (r) => r.payment.id,
    ),
    getApp(deps, actor, appId),
  ]);
  const withTransfers = rows.filter((r) => hasTransfers(r.payment)).map((r) => r.payment.id);
  const transfers = await transfersOf(deps.db, withTransfers);
  const now = deps.now();
  const items = rows.map((r) =>
    presentPayment(r.payment, {
      app,
      price: r.price,
      transfers,
      now,
      paymentToken: openPaymentToken(deps.custody, r.payment),
    }),
  );
  return { items, total, neighbours };
}

/** The payment a shopper's page token names, or 404. */
export async function paymentByToken(deps: Deps, token: string) {
  const [row] = await deps.db
    .select()
    .from(payments)
    .where(eq(payments.paymentTokenHash, hashToken(token)));
  if (!row) throw notFound("Payment");
  return row;
}

/**
 * `deps.referrers.priceHasPayments` for prices: whether any payment refers to the price (a price with
 * payments is expired instead of deleted).
 */
export async function priceHasPayments(db: Executor, priceId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.priceId, priceId))
    .limit(1);
  return row !== undefined;
}
