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

/** Whose answer a context is: the app and price of the payment, and the calling user (null: an API key or a shopper). */
export interface AnswerKey {
  appId: string;
  priceId: string;
  userId: string | null;
}

/**
 * Remembered contexts of answered payments (the app, its creator, the caller's role, the price: all
 * but the payment), each with the app's version it was read at. One is used only while a read of
 * the payment finds the app at that version, which every change to any of those rows raises
 * (`appForPayment`), so a remembered context is never older than the answer's own read; the time
 * limit only bounds memory.
 */
export class AnswerContexts<T extends { version: string } = { version: string }> {
  readonly #entries = new ExpiringMap<string, T>({ ttlMs: CONTEXT_TTL_MS, maxEntries: MAX_CONTEXTS });

  static #byDatabase = new WeakMap<Database, AnswerContexts<never>>();
  /** One set per database handle (per process, per test app). */
  static of<T extends { version: string }>(db: Database): AnswerContexts<T> {
    let contexts = AnswerContexts.#byDatabase.get(db) as AnswerContexts<T> | undefined;
    if (!contexts) {
      contexts = new AnswerContexts<T>();
      AnswerContexts.#byDatabase.set(db, contexts as never);
    }
    return contexts;
  }

  static #key = (key: AnswerKey) => `${key.appId}\u0000${key.priceId}\u0000${key.userId ?? ""}`;

  /** The context remembered for `key`, if it was read at `version`. */
  get(key: AnswerKey, version: string): T | undefined {
    const found = this.#entries.get(AnswerContexts.#key(key));
    return found?.version === version ? found : undefined;
  }

  set(key: AnswerKey, context: T): void {
    this.#entries.set(AnswerContexts.#key(key), context);
  }
}
