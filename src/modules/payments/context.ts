import { and, type SQL, sql } from "drizzle-orm";
import { type Database, prepared, withValues } from "../../platform/db/index.ts";
import { ExpiringMap } from "../../platform/expiring-map.ts";
import { appForPayment, roleForPayment } from "../apps/for-payment.ts";
import { sellerForPayment } from "../kyc/for-payment.ts";
import { priceForPayment } from "../prices/for-payment.ts";
import { endpointsForPayment } from "../webhooks/for-payment.ts";

/** Who asks for which price: the three values the context's statement is filtered by, as SQL. */
interface Given {
  appId: SQL;
  priceId: SQL;
  /** The calling user; null for API keys and shoppers (their role does not come from members). */
  userId: SQL;
}

/**
 * The payment context's rows, defined once: the app with its creator, the price with its trigger
 * and wallet, the caller's role, the price's seller's standing and the app's webhook endpoints,
 * each part offered by the module that owns its tables, and `versions`, the row versions of all
 * of them as one text (a change to any row changes it). With `versionsWere`, the same statement
 * answers a row only while the versions are still those: the write's guard (`unchangedSince`) is
 * this statement inside `exists`, so the read and the guard can never disagree on what counts.
 * Inside `exists` PostgreSQL ignores the select list, so the guard computes only the versions.
 */
function contextStatement(db: Database, given: Given, versionsWere?: SQL) {
  const app = appForPayment(given.appId);
  const price = priceForPayment(app.id, given.priceId);
  const member = roleForPayment(app.id, given.userId);
  const seller = sellerForPayment(app.id, price.sellerId);
  const endpoints = endpointsForPayment(app.id);
  const versions = [...app.versions, ...price.versions, member.version, seller.version, endpoints.version];
  const versionsNow = sql<string>`concat_ws(',', ${sql.join(
    versions.map((version) => sql`coalesce(${version}::text, '-')`),
    sql`, `,
  )})`;
  const [priceJoin, triggerJoin, walletJoin] = price.joins;
  return db
    .select({
      ...app.columns,
      role: member.role,
      ...price.columns,
      // Whether the seller can receive transfers is decided on this (`sellerStanding`); the
      // record's row version is among `versions`, so any change to it is seen by the write.
      seller: seller.seller,
      endpoints: endpoints.endpoints,
      versions: versionsNow,
    })
    .from(app.table)
    .innerJoin(app.creator.table, app.creator.on)
    .leftJoin(priceJoin.table, priceJoin.on)
    .leftJoin(triggerJoin.table, triggerJoin.on)
    .leftJoin(walletJoin.table, walletJoin.on)
    .where(and(app.where, versionsWere && sql`${versionsNow} = ${versionsWere}`));
}

/** The three values, as the placeholders the read and the guard are prepared with. */
const PLACEHOLDERS: Given = {
  appId: sql`${sql.placeholder("app_id")}`,
  priceId: sql`${sql.placeholder("price_id")}`,
  userId: sql`${sql.placeholder("user_id")}`,
};

/** The context read, prepared once per database; its three values are given when it runs. */
const contextQuery = (db: Database) => contextStatement(db, PLACEHOLDERS).prepare("payment_context");

/** The guard's statement with placeholders, built once per database (`withValues` fills it). */
const guardTemplate = (db: Database) =>
  contextStatement(db, PLACEHOLDERS, sql`${sql.placeholder("versions")}`).getSQL();

export type PaymentContext = Awaited<ReturnType<ReturnType<typeof contextQuery>["execute"]>>[number];

export interface ContextKey {
  appId: string;
  priceId: string;
  /** The calling user; null for API keys and shoppers (their role does not come from members). */
  userId: string | null;
}

/**
 * Everything a new payment needs, in one statement (prepared): the app with its creator (for the
 * answer), the caller's role, the price with its trigger and wallet (to check the trigger's
 * parameters), the price's seller's standing (active, account, payouts), the app's webhook
 * endpoints (for `payment.pending`), and the versions of all of it.
 */
export async function readContext(db: Database, key: ContextKey): Promise<PaymentContext | undefined> {
  const [context] = await prepared(db, "payment_context", contextQuery).execute({
    app_id: key.appId,
    price_id: key.priceId,
    user_id: key.userId,
  });
  return context;
}

/**
 * A condition for a create's write, true only while every row its context was read from is as it
 * was: the context's own statement, with the versions it answered (`contextStatement`). Its text
 * is made once per database, as the read's is: the whole select list is in it, ignored inside
 * `exists` but long to build for every create.
 */
export function unchangedSince(db: Database, key: ContextKey, versions: string): SQL {
  const values = { app_id: key.appId, price_id: key.priceId, user_id: key.userId, versions };
  return sql`exists (${withValues(prepared(db, "payment_context_guard", guardTemplate), values)})`;
}

/** Contexts this process read, kept between creates of the same price by the same caller. */
const MAX_CONTEXTS = 1000;
const CONTEXT_TTL_MS = 60_000;

/**
 * Remembered payment contexts. Nothing here is trusted: a create writes only if `unchangedSince`
 * holds, so a remembered context saves the read and nothing else; the time limit only bounds
 * memory for prices no longer paid.
 */
export class PaymentContexts {
  readonly #entries = new ExpiringMap<string, PaymentContext>({
    ttlMs: CONTEXT_TTL_MS,
    maxEntries: MAX_CONTEXTS,
  });

  static #byDatabase = new WeakMap<Database, PaymentContexts>();
  /** One set per database handle (per process, per test app). */
  static of(db: Database): PaymentContexts {
    let contexts = PaymentContexts.#byDatabase.get(db);
    if (!contexts) {
      contexts = new PaymentContexts();
      PaymentContexts.#byDatabase.set(db, contexts);
    }
    return contexts;
  }

  static #key = (key: ContextKey) => `${key.appId}\u0000${key.priceId}\u0000${key.userId ?? ""}`;

  get(key: ContextKey): PaymentContext | undefined {
    return this.#entries.get(PaymentContexts.#key(key));
  }

  set(key: ContextKey, context: PaymentContext): void {
    this.#entries.set(PaymentContexts.#key(key), context);
  }

  delete(key: ContextKey): void {
    this.#entries.delete(PaymentContexts.#key(key));
  }
}
