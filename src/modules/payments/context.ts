import { type SQL, sql } from "drizzle-orm";
import { type Database, prepared } from "../../platform/db/index.ts";
import { ExpiringMap } from "../../platform/expiring-map.ts";
import { contextUnchanged } from "../apps/for-payment.ts";
import { paymentContextRead } from "./sql.ts";

export type PaymentContext = Awaited<ReturnType<ReturnType<typeof paymentContextRead>["execute"]>>[number];

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
 * endpoints (for `payment.pending`), and the version of all of it (the app row's: `appForPayment`).
 */
export async function readContext(db: Database, key: ContextKey): Promise<PaymentContext | undefined> {
  const [context] = await prepared(db, "payment_context", paymentContextRead).execute({
    app_id: key.appId,
    price_id: key.priceId,
    user_id: key.userId,
  });
  return context;
}

/**
 * A condition for a create's write, true only while every row its context was read from is as it
 * was: the app is still at the version the context answered (`contextUnchanged`). One row, by its
 * primary key: with the six tables' joins it replaced, creates answered 15% fewer a second
 * (docs/benchmarks.md, "The create's guard, one row"). A part of the create's template (built once,
 * given its values by `withValues`): `unchangedSinceValues` fills its two placeholders.
 */
export function unchangedSince(): SQL {
  return contextUnchanged(sql`${sql.placeholder("app_id")}`, sql`${sql.placeholder("context_version")}`);
}

/** The values of `unchangedSince`'s placeholders for a create of `key` decided on `context`. */
export function unchangedSinceValues(key: ContextKey, context: PaymentContext) {
  return { app_id: key.appId, context_version: context.version };
}

/** Contexts this process read, kept between creates (and answers) of a price by the same caller. */
const MAX_CONTEXTS = 1000;
const CONTEXT_TTL_MS = 60_000;

/**
 * Remembered contexts, by app, price and caller: a create's (`PaymentContexts.of(db)`, the default),
 * a payment answer's (`PaymentContexts.of(db, "answer")`) and a list's prices (`"list"`, no caller).
 * Nothing here is trusted: a create writes only if `unchangedSince` holds, and an answer or a list
 * uses one only while its read finds the app at the context's version, which every change to the rows it was read from raises
 * (`appForPayment`); so a remembered context saves a read and nothing else, and the time limit
 * only bounds memory for prices no longer paid.
 */
export class PaymentContexts<T = PaymentContext> {
  readonly #entries = new ExpiringMap<string, T>({
    ttlMs: CONTEXT_TTL_MS,
    maxEntries: MAX_CONTEXTS,
  });

  static #byDatabase = new WeakMap<Database, Map<string, PaymentContexts<unknown>>>();
  /** One set of each kind per database handle (per process, per test app). */
  static of<T = PaymentContext>(
    db: Database,
    kind: "create" | "answer" | "list" = "create",
  ): PaymentContexts<T> {
    let kinds = PaymentContexts.#byDatabase.get(db);
    if (!kinds) {
      kinds = new Map();
      PaymentContexts.#byDatabase.set(db, kinds);
    }
    let contexts = kinds.get(kind);
    if (!contexts) {
      contexts = new PaymentContexts<unknown>();
      kinds.set(kind, contexts);
    }
    return contexts as PaymentContexts<T>;
  }

  static #key = (key: ContextKey) => `${key.appId}\u0000${key.priceId}\u0000${key.userId ?? ""}`;

  get(key: ContextKey): T | undefined {
    return this.#entries.get(PaymentContexts.#key(key));
  }

  set(key: ContextKey, context: T): void {
    this.#entries.set(PaymentContexts.#key(key), context);
  }

  delete(key: ContextKey): void {
    this.#entries.delete(PaymentContexts.#key(key));
  }
}
