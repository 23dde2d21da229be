import { and, eq, sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Action, Principal } from "../../platform/auth/principal.ts";
import { hashToken } from "../../platform/auth/secrets.ts";
import { type Database, type Executor, prepared, type Tx } from "../../platform/db/index.ts";
import { appRecord } from "../../platform/http/app-record.ts";
import { notFound } from "../../platform/http/errors.ts";
import type { Page } from "../../platform/http/pagination.ts";
import { pageOfPrepared } from "../../platform/http/prepared-list.ts";
import { checkRole, requireAppRole, TWO_FACTOR_MISSING, twoFactorRequired } from "../apps/access.ts";
import { appForPayment, roleForPayment } from "../apps/for-payment.ts";
import { getApp, presentApp } from "../apps/service.ts";
import { transfersOf } from "../ledger/reads.ts";
import { type PriceRow, presentPrice } from "../prices/presenters.ts";
import { findPrice, findPrices, priceJoin } from "../prices/queries.ts";
import { PaymentContexts } from "./context.ts";
import { emailTrigramShares } from "./email-search.ts";
import type { PaymentRow } from "./lifecycle.ts";
import { openPaymentToken } from "./payment-token.ts";
import { answerColumns, type PaymentAnswer, presentPayment } from "./presenters.ts";
import type { PaymentFilters } from "./schemas.ts";
import { filterConditions } from "./search.ts";
import { payments } from "./tables.ts";

// Reading payments: one, a page of them, and the one a shopper's page token names.

/** Whether the books can hold transfers of the payment: the ledger is read only then. */
export const hasTransfers = (row: Pick<PaymentRow, "transfers">) => Object.keys(row.transfers).length > 0;

/**
 * A payment as the app's own credentials read it: with its payment token. `known`, the app (as
 * presented) and the price when the caller read them already (`paymentFor`).
 */
export async function present(
  deps: Deps,
  actor: Principal,
  row: PaymentAnswer,
  known?: { app: ReturnType<typeof presentApp>; price: PriceRow },
) {
  const [app, price, transfers] = await Promise.all([
    known?.app ?? getApp(deps, actor, row.appId),
    known?.price ?? findPrice(deps.db, row.priceId),
    hasTransfers(row) ? transfersOf(deps.db, [row.id]) : [],
  ]);
  if (!price) throw new Error(`Payment ${row.id} lost its price`);
  return presentPayment(row, {
    app,
    price: presentPrice(price, deps.now()),
    transfers,
    paymentToken: openPaymentToken(deps.custody, row),
  });
}

export async function loadPayment(db: Deps["db"] | Tx, appId: string, paymentId: string, lock = false) {
  return appRecord(db, payments, appId, paymentId, "Payment", lock ? "update" : undefined);
}

// What answering a payment needs beside its own columns: the caller's role (a user's; an API key's
// needs no read), the app with its creator, and the price, each part offered by the module that
// owns it, and the version of all of it (the app row's, `appForPayment`), for remembering it.
// The payment found by its primary key alone, the app compared by the caller: with `app_id = $1` beside it,
// a table whose statistics are missing or young (PGlite never analyses; PostgreSQL's autovacuum
// waits a minute) may be read through an index that starts with `app_id`, every payment of the app
// filtered by id (0.5 ms a read at 2,000 payments, growing with them; docs/benchmarks.md, "Every
// repeated statement prepared, and the payment read by its key").
const answerContext = (db: Database) => {
  const app = appForPayment(sql`${payments.appId}`);
  const role = roleForPayment(app.id, sql`${sql.placeholder("user_id")}`);
  const price = priceJoin(payments.priceId);
  return db
    .select({ ...app.columns, role, price: price.columns, version: app.version })
    .from(payments)
    .innerJoin(app.table, app.where)
    .innerJoin(app.creator.table, app.creator.on)
    .innerJoin(price.table, price.on)
    .where(eq(payments.id, sql.placeholder("payment_id")))
    .prepare("payment_answer_context");
};

// The payment with what says whether a remembered context still holds: its app's version and its
// price's views (counted on the price's row without raising the version), and the payment row's
// own version (`xmin`, new with every change to the row) for a remembered answer
// (answer-text.ts). Two rows by their primary keys beside the payment's, and none of the app's,
// creator's or price's columns to send. Three statements: the whole row for a command's checks,
// the answer's columns for a read, and the keys alone for a read whose answer may be remembered.
const stampColumns = { id: payments.id, appId: payments.appId, priceId: payments.priceId };
const xmin = sql<string>`${payments}.xmin::text`;
type Columns = typeof answerColumns | typeof payments | typeof stampColumns;
const withVersion = (name: string, columns: Columns) => (db: Database) => {
  const app = appForPayment(sql`${payments.appId}`);
  const price = priceJoin(payments.priceId);
  return db
    .select({ payment: columns, version: app.version, views: price.columns.views, rowVersion: xmin })
    .from(payments)
    .innerJoin(app.table, app.where)
    .innerJoin(price.table, price.on)
    .where(eq(payments.id, sql.placeholder("payment_id")))
    .prepare(name);
};
const readOf = (name: string, columns: Columns) => ({ name, statement: withVersion(name, columns) });
const READS = {
  whole: readOf("payment_with_version", payments),
  answer: readOf("answer_with_version", answerColumns),
  stamp: readOf("answer_stamp", stampColumns),
};
/** The statement a read that only answers sends, and its name (bench/answer-parts.ts times it alone). */
export const answerRead = READS.answer;
type Read = keyof typeof READS;
type PaymentKeys = Pick<PaymentRow, keyof typeof stampColumns>;
type ReadRow = { whole: PaymentRow; answer: PaymentAnswer; stamp: PaymentKeys };

type Context = Awaited<ReturnType<ReturnType<typeof answerContext>["execute"]>>[number];
type WithContext<P> = Context & { payment: P };

/**
 * The payment `paymentId` with its context: the one statement that reads it all, or, when this
 * process answered a payment of the same app, price and caller since the app's version last
 * changed, the payment alone with that version, the context remembered (`PaymentContexts`).
 * Undefined when there is no such payment in app `appId`. `stamp`: the versions of every row the
 * answer is made from (the payment's, its app's, its price's views), for a remembered answer.
 */
async function readWithContext<R extends Read>(
  deps: Deps,
  read: R,
  appId: string,
  paymentId: string,
  userId: string | null,
): Promise<(WithContext<ReadRow[R]> & { stamp: string }) | undefined> {
  const { name, statement } = READS[read];
  const [light] = await prepared(deps.db, name, statement).execute({ payment_id: paymentId });
  // Another app's payment reads as none, exactly as a missing one.
  if (light?.payment.appId !== appId) return undefined;
  const row = await withContext(deps, light.payment as ReadRow[R], light, userId);
  return row && { ...row, stamp: `${light.rowVersion}/${light.version}/${light.views}` };
}

/**
 * Payment `payment` (read with its app's `version` and its price's `views`) with its context: the
 * remembered one while the app is still at that version, else the one statement that reads it,
 * remembered for the next answer.
 */
async function withContext<P extends PaymentKeys>(
  deps: Deps,
  payment: P,
  seen: { version: string; views: number },
  userId: string | null,
): Promise<WithContext<P> | undefined> {
  const contexts = PaymentContexts.of<Context>(deps.db, "answer");
  const key = { appId: payment.appId, priceId: payment.priceId, userId };
  const known = contexts.get(key);
  if (known?.version === seen.version)
    return { ...known, payment, price: { ...known.price, views: seen.views } };
  const [context] = await prepared(deps.db, "payment_answer_context", answerContext).execute({
    payment_id: payment.id,
    user_id: userId,
  });
  if (!context) return undefined;
  contexts.set(key, context);
  return { ...context, payment };
}

/**
 * The answer to a write a caller made to `payment` without reading it first (`requestWhileOpen`'s,
 * which checked the caller's role in its guard and read its app's `version` and its price's `views`
 * with it): the payment, the row as written, with its app and price, as `paymentFor` answers it.
 */
export async function presentWritten(
  deps: Deps,
  actor: Principal,
  written: { payment: PaymentRow; version: string; views: number },
) {
  const row = await withContext(deps, written.payment, written, actor.kind === "user" ? actor.userId : null);
  if (!row) throw notFound("Payment");
  const role = answerRole(actor, written.payment.appId, row.role, "edit");
  const app = appAnswer(row, role, deps.config.publicUrl);
  return present(deps, actor, written.payment, { app, price: row.price });
}

/**
 * The app as a payment's answer shows it, presented once per remembered context, role and public
 * URL: a context's app and creator rows are the same objects for every answer while the app keeps
 * its version (`withContext`), and a new version is read into new ones. Shared by the answers that
 * show it, so nothing may change it after.
 */
const presentedApps = new WeakMap<Context["app"], Map<string, ReturnType<typeof presentApp>>>();
function appAnswer(row: Context, role: ReturnType<typeof answerRole>, publicUrl: string) {
  let byRole = presentedApps.get(row.app);
  if (!byRole) {
    byRole = new Map();
    presentedApps.set(row.app, byRole);
  }
  const key = `${role}\u0000${publicUrl}`;
  let app = byRole.get(key);
  if (!app) {
    app = presentApp(row.app, row.owner, role, publicUrl);
    byRole.set(key, app);
  }
  return app;
}

/** The caller's role in the answer, as `requireAppRole` decides it: a key's own app, a member's. */
function answerRole(actor: Principal, appId: string, memberRole: Context["role"], action: Action) {
  const held = actor.kind === "api_key" ? (actor.appId === appId ? "developer" : undefined) : memberRole;
  if (held === TWO_FACTOR_MISSING) throw twoFactorRequired();
  return checkRole(held ?? undefined, action);
}

/**
 * The payment `paymentId` of `appId`, once `actor` may `action` in the app, with the app (as
 * presented) and the price its answer shows: one prepared statement where `requireAppRole`,
 * `loadPayment` and the answer's two reads were four (its context remembered: a lighter one). The
 * refusals are theirs, in their order: without a row, the role is checked the long way and then
 * the payment is 404. `read`: the whole row (a command checks and writes it) or the answer's
 * columns (`answerColumns`: a read that only answers it) or its keys alone (a read whose answer
 * this process remembers, answer-text.ts). `role`, the caller's; `stamp`, `readWithContext`'s.
 */
export async function paymentFor<R extends Read>(
  deps: Deps,
  actor: Principal,
  appId: string,
  paymentId: string,
  action: Action,
  read: R,
) {
  const row = await readWithContext(
    deps,
    read,
    appId,
    paymentId,
    actor.kind === "user" ? actor.userId : null,
  );
  if (!row) {
    await requireAppRole(deps.db, actor, appId, action);
    throw notFound("Payment");
  }
  const role = answerRole(actor, appId, row.role, action);
  return {
    payment: row.payment,
    known: { app: appAnswer(row, role, deps.config.publicUrl), price: row.price },
    role,
    stamp: row.stamp,
  };
}

export async function listPayments(
  deps: Deps,
  actor: Principal,
  appId: string,
  page: Page,
  filters: PaymentFilters,
) {
  // A member's role is read, with the app, before anything else; an API key's needs no read, and
  // its app is read beside the page.
  const checkedFirst = actor.kind === "user" ? await listedApp(deps, actor, appId) : undefined;
  if (!checkedFirst) answerRole(actor, appId, null, "view");
  const shares = filters.shopper_email ? await emailTrigramShares(deps.lagging) : undefined;
  const filter = filterConditions(filters, shares);
  const list = {
    name: "payments_list",
    table: payments,
    scope: eq(payments.appId, appId),
    where: {
      shape: filter.shape,
      sql: and(eq(payments.appId, sql.placeholder("app_id")), ...filter.conditions)!,
      values: { app_id: appId, ...filter.values },
      keysFirst: filter.keysFirst,
      keysEach: filter.keysEach,
      countAfterPage: filter.countAfterPage,
      matchesFirst: filter.matchesFirst,
    },
    newestFirst: true,
  };
  // A list tolerates a replica's lag (DATABASE_REPLICA_URL); the role and the app read the primary.
  const reader = { db: deps.lagging, config: deps.config };
  const [{ app, version }, { rows, total, neighbours }] = await Promise.all([
    checkedFirst ?? listedApp(deps, actor, appId),
    pageOfPrepared(reader, page, list, paymentsWithViews, (r) => r.payment.id),
  ]);
  const withTransfers = rows.filter((r) => hasTransfers(r.payment)).map((r) => r.payment.id);
  const [transfers, prices] = await Promise.all([
    transfersOf(deps.db, withTransfers),
    pagePrices(deps, appId, version, rows),
  ]);
  const items = rows.map((r) =>
    presentPayment(r.payment, {
      app,
      price: prices.get(r.payment.priceId)!,
      transfers,
      paymentToken: openPaymentToken(deps.custody, r.payment),
    }),
  );
  return { items, total, neighbours };
}

/**
 * The prices a page's payments show, each presented once: remembered by app and price with the
 * app's version they were read at, which every change to an app's price but its count of views
 * raises (`appForPayment`), so only the prices not remembered at `version` are read, in one
 * statement; each with its views as the page's own statement read them.
 */
async function pagePrices(
  deps: Deps,
  appId: string,
  version: string,
  rows: { payment: { priceId: string }; views: number }[],
) {
  const remembered = PaymentContexts.of<{ version: string; price: PriceRow }>(deps.db, "list");
  const found = new Map<string, PriceRow>();
  const missing = new Set<string>();
  for (const { payment } of rows) {
    const known = remembered.get({ appId, priceId: payment.priceId, userId: null });
    if (known?.version === version) found.set(payment.priceId, known.price);
    else missing.add(payment.priceId);
  }
  if (missing.size > 0) {
    for (const price of await findPrices(deps.db, [...missing])) {
      remembered.set({ appId, priceId: price.id, userId: null }, { version, price });
      found.set(price.id, price);
    }
  }
  const now = deps.now();
  const presented = new Map<string, ReturnType<typeof presentPrice>>();
  for (const { payment, views } of rows) {
    if (presented.has(payment.priceId)) continue;
    const price = found.get(payment.priceId);
    if (!price) throw new Error(`Payment of price ${payment.priceId} lost its price`);
    presented.set(payment.priceId, presentPrice({ ...price, views }, now));
  }
  return presented;
}

// The app a list's payments show, with the caller's role in it (`requireAppRole`'s rule, two-factor
// log-in included): one statement where the role check and the app's view were two, before the page
// and its count are read (docs/benchmarks.md, "A list's role and app in one statement").
const listedAppView = (db: Database) => {
  const app = appForPayment(sql`${sql.placeholder("app_id")}`);
  const role = roleForPayment(app.id, sql`${sql.placeholder("user_id")}`);
  return db
    .select({ ...app.columns, role, version: app.version })
    .from(app.table)
    .innerJoin(app.creator.table, app.creator.on)
    .where(app.where)
    .prepare("payments_list_app");
};

/** App `appId` as its payments' answers show it, once `actor` may view it: else 404 or 403. */
async function listedApp(deps: Deps, actor: Principal, appId: string) {
  const [row] = await prepared(deps.db, "payments_list_app", listedAppView).execute({
    app_id: appId,
    user_id: actor.kind === "user" ? actor.userId : null,
  });
  if (!row) throw notFound("App");
  const role = answerRole(actor, appId, row.role, "view");
  return { app: presentApp(row.app, row.owner, role, deps.config.publicUrl), version: row.version };
}

/**
 * Payments with their prices' views, for a list's page (`pageOfPrepared` adds the filter and
 * window): the rest of each price is the same on every row that has it (`pagePrices`).
 */
const paymentsWithViews = (db: Database) => {
  const price = priceJoin(payments.priceId);
  return db
    .select({ payment: answerColumns, views: price.columns.views })
    .from(payments)
    .innerJoin(price.table, price.on)
    .$dynamic();
};

// The hosted checkout page reads its payment by token every 700 ms while it waits: prepared.
const paymentByTokenHash = (db: Database) =>
  db
    .select()
    .from(payments)
    .where(eq(payments.paymentTokenHash, sql.placeholder("hash")))
    .prepare("payment_by_token");

/** The payment a shopper's page token names, or 404. */
export async function paymentByToken(deps: Deps, token: string) {
  const [row] = await prepared(deps.db, "payment_by_token", paymentByTokenHash).execute({
    hash: hashToken(token),
  });
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
