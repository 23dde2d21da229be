import { and, eq, type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Role } from "../../platform/auth/principal.ts";
import { type Database, type Params, prepared } from "../../platform/db/index.ts";
import { ExpiringMap } from "../../platform/expiring-map.ts";
import { apps } from "../apps/tables.ts";
import type { SellerState } from "../kyc/sellers.ts";
import { kycs } from "../kyc/tables.ts";
import { members } from "../members/tables.ts";
import { prices } from "../prices/tables.ts";
import { triggers } from "../triggers/tables.ts";
import { users } from "../users/tables.ts";
import { wallets } from "../wallets/tables.ts";
import { webhookEndpoints } from "../webhooks/tables.ts";

/**
 * The row versions (`xmin`, which every update of a row changes) of everything a new payment is
 * decided on, as one text: the app, its creator, the price, its trigger and wallet, the caller's
 * membership, the price's seller and the app's webhook endpoints. The price is the exception: its
 * version is a digest of its values without `views`, because the checkout page counts a view on
 * that row, and a shopper who opens the page and then pays must not make the create read again. `userId` is the SQL of the
 * calling user's id (null for API keys and shoppers). The context read selects it and a create's
 * write compares it, both from this one expression, so the two can never disagree on what counts.
 */
function versionsOf(userId: SQL): SQL {
  const version = (column: SQL) => sql`coalesce(${column}::text, '-')`;
  return sql`concat_ws(',',
    ${version(sql`"apps".xmin`)}, ${version(sql`"users".xmin`)}, ${version(sql`md5((to_jsonb("prices") - 'views')::text)`)},
    ${version(sql`"triggers".xmin`)}, ${version(sql`"wallets".xmin`)},
    ${version(sql`(select "members".xmin from "members" where "members"."app_id" = "apps"."id"
      and "members"."user_id" = ${userId}::text and "members"."accepted_at" is not null)`)},
    ${version(sql`(select "kycs".xmin from "kycs" where "kycs"."app_id" = "apps"."id" and "kycs"."id" = "prices"."kyc_id")`)},
    ${version(sql`(select string_agg("webhook_endpoints"."id" || '.' || "webhook_endpoints".xmin::text, ' '
      order by "webhook_endpoints"."id") from "webhook_endpoints" where "webhook_endpoints"."app_id" = "apps"."id")`)})`;
}

/**
 * Everything a new payment needs, in one statement (prepared): the app with its creator (for the
 * answer), the caller's role, the price with its trigger and wallet (to check the trigger's
 * parameters), the price's seller's standing (active, account, payouts), the app's webhook endpoints (for
 * `payment.pending`), and the versions of all of it. `user_id` is the calling user, else null.
 */
const contextQuery = (db: Database) =>
  db
    .select({
      app: apps,
      owner: { id: users.id, username: users.username, firstName: users.firstName, lastName: users.lastName },
      role: sql<Role | null>`(select ${members.role} from ${members} where ${members.appId} = ${apps.id}
        and ${members.userId} = ${sql.placeholder("user_id")}::text and ${members.acceptedAt} is not null)`,
      price: prices,
      trigger: {
        callData: triggers.callData,
        paramsData: triggers.paramsData,
        customAddressEnabled: triggers.customAddressEnabled,
        customAddress: triggers.customAddress,
      },
      wallet: { type: wallets.type, accountId: wallets.accountId, permission: wallets.permission },
      // Whether the seller can receive transfers is decided on this (`sellerStanding`); the
      // record's row version is among `versions`, so any change to it is seen by the write.
      seller: sql<SellerState | null>`(select json_build_object('active', ${kycs.active},
        'accountId', ${kycs.providerAccountId}, 'payoutsEnabled', ${kycs.payoutsEnabled},
        'capabilities', ${kycs.capabilities}, 'requirements', ${kycs.requirements}) from ${kycs}
        where ${kycs.appId} = ${apps.id} and ${kycs.id} = ${prices.kycId})`,
      endpoints: sql<{ id: string; events: string[] }[]>`(select coalesce(json_agg(json_build_object(
        'id', ${webhookEndpoints.id}, 'events', ${webhookEndpoints.events})), '[]'::json)
        from ${webhookEndpoints} where ${webhookEndpoints.appId} = ${apps.id})`,
      versions: sql<string>`${versionsOf(sql.placeholder("user_id") as unknown as SQL)}`,
    })
    .from(apps)
    .innerJoin(users, eq(users.id, apps.createdBy))
    .leftJoin(prices, and(eq(prices.appId, apps.id), eq(prices.id, sql.placeholder("price_id"))))
    .leftJoin(triggers, and(eq(triggers.id, prices.triggerId), eq(triggers.appId, apps.id)))
    .leftJoin(wallets, eq(wallets.id, triggers.walletId))
    .where(eq(apps.id, sql.placeholder("app_id")))
    .prepare("payment_context");

export type PaymentContext = Awaited<ReturnType<ReturnType<typeof contextQuery>["execute"]>>[number];

interface ContextKey {
  appId: string;
  priceId: string;
  /** The calling user; null for API keys and shoppers (their role does not come from members). */
  userId: string | null;
}

export async function readContext(db: Database, key: ContextKey): Promise<PaymentContext | undefined> {
  const [context] = await prepared(db, "payment_context", contextQuery).execute({
    app_id: key.appId,
    price_id: key.priceId,
    user_id: key.userId,
  });
  return context;
}

const USER_MARK = "$user$";
let versionsSql: string | undefined;
/** `versionsOf` as text, the user's parameter left as USER_MARK (built once). */
function versionsText(): string {
  if (versionsSql === undefined) {
    const query = new PgDialect().sqlToQuery(versionsOf(sql.raw(USER_MARK)));
    if (query.params.length > 0) throw new Error("the version expression takes no parameter but the user");
    versionsSql = query.sql;
  }
  return versionsSql;
}

/**
 * A condition for a create's write, true only while every row its context was read from is as it
 * was: the same joins as the context read and the same versions (`versionsOf`). Its parameters go
 * into `params`.
 */
export function unchangedSince(key: ContextKey, versions: string, params: Params): string {
  const versionsNow = versionsText().replaceAll(USER_MARK, params.add(key.userId));
  return `exists (select 1 from "apps" join "users" on "users"."id" = "apps"."created_by"
    left join "prices" on "prices"."app_id" = "apps"."id" and "prices"."id" = ${params.add(key.priceId)}
    left join "triggers" on "triggers"."id" = "prices"."trigger_id" and "triggers"."app_id" = "apps"."id"
    left join "wallets" on "wallets"."id" = "triggers"."wallet_id"
    where "apps"."id" = ${params.add(key.appId)} and ${versionsNow} = ${params.add(versions)})`;
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
