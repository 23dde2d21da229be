import { eq, sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Principal, Role } from "../../platform/auth/principal.ts";
import { hashToken } from "../../platform/auth/secrets.ts";
import {
  fillRow,
  insertRow,
  rowKeys,
  rowTemplate,
  statementRunner,
  withValues,
  writeIf,
} from "../../platform/db/index.ts";
import { AppError, invalid } from "../../platform/http/errors.ts";
import { newId, newSecret } from "../../platform/ids.ts";
import { currencyOf } from "../../platform/money/currencies.ts";
import type { AppType } from "../../platform/money/fees.ts";
import { checkPaymentCeiling, quotePriceItem } from "../../platform/money/quote.ts";
import { checkRole, TWO_FACTOR_MISSING, twoFactorRequired } from "../apps/access.ts";
import { presentApp } from "../apps/service.ts";
import { sellerNotPayable, sellerStanding } from "../kyc/sellers.ts";
import { amountToPay } from "../prices/amount.ts";
import { isExpired } from "../prices/presenters.ts";
import { checkCanPayGas } from "../wallets/balance.ts";
import { eventPartsTemplate, fillEventParts } from "../webhooks/events.ts";
import {
  type ContextKey,
  type PaymentContext,
  PaymentContexts,
  readContext,
  unchangedSince,
  unchangedSinceValues,
} from "./context.ts";
import { type PaymentRow, paymentEventData, paymentEventRow } from "./lifecycle.ts";
import { checkPayable } from "./payable.ts";
import { openPaymentToken, sealPaymentToken } from "./payment-token.ts";
import { paymentEvents, payments } from "./tables.ts";

export interface CreatePaymentInput {
  price_id: string;
  /** Internal: hold only (auction bids); see `payments.deferExecution`. */
  defer_execution?: boolean;
  payment_provider: "card" | "us_bank_account";
  trigger_data_input?: { params_data_input: Record<string, unknown> };
  amount?: number | string;
  shopper_email?: string;
}

export const actorName = (actor: Principal | "shopper") =>
  actor === "shopper" ? "shopper" : actor.kind === "user" ? `user:${actor.userId}` : `api_key:${actor.keyId}`;

/**
 * Creates a pending payment for a price: the amount (a dynamic price takes the shopper's, at least
 * its own), the fee split and the exchange rate are fixed now and never recomputed. Used by the
 * API and by the hosted checkout (`actor` "shopper").
 *
 * Three steps, each once per attempt: the context (app, price, trigger, role, seller, webhook
 * endpoints; remembered from this process's last create of the price by the same caller, else
 * read in one statement), the decision on it (`decidePayment`: every check and figure, nothing
 * written), and the write (`writeIfUnchanged`: one statement, made only if no row the context came
 * from has changed). One round trip on a remembered context, two otherwise, and no BEGIN/COMMIT
 * on either engine. A remembered context that is stale, or that refused the payment, is read
 * afresh and decided again.
 */
export async function openPayment(
  deps: Deps,
  actor: Principal | "shopper",
  appId: string,
  input: CreatePaymentInput,
  createKey?: string,
) {
  const key: ContextKey = {
    appId,
    priceId: input.price_id,
    userId: actor !== "shopper" && actor.kind === "user" ? actor.userId : null,
  };
  // Decides on a context (nothing written), then writes if none of its rows has changed.
  const openOn = async (context: PaymentContext | undefined) =>
    writeIfUnchanged(deps, key, await decidePayment(deps, actor, input, key, context, createKey));
  const contexts = PaymentContexts.of(deps.db);
  const remembered = contexts.get(key);
  if (remembered) {
    try {
      const opened = await openOn(remembered);
      if (opened) return opened;
    } catch (error) {
      // Only a refusal is decided again; a failed write is not retried (it may have committed).
      if (!(error instanceof AppError)) throw error;
    }
    contexts.delete(key);
  }
  // A change between the read and the write (an app or price edited at that moment) reads again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const opened = await openOn(await readContext(deps.db, key));
    if (opened) {
      contexts.set(key, opened.context);
      return opened;
    }
  }
  throw new AppError(
    "conflict",
    "The price or its app kept changing while the payment was created; try again",
  );
}

/**
 * Decides a new payment on `context`, writing nothing: refuses it (a thrown `AppError`) or answers
 * the payment's row as it will be stored, its token and the caller's role, with the context.
 */
async function decidePayment(
  deps: Deps,
  actor: Principal | "shopper",
  input: CreatePaymentInput,
  key: ContextKey,
  context: PaymentContext | undefined,
  createKey: string | undefined,
) {
  const { appId } = key;
  let role: Role | undefined;
  if (actor !== "shopper") {
    // An API key acts for its one app, with the developer role.
    const found =
      actor.kind === "api_key" ? (actor.appId === appId ? "developer" : undefined) : context?.role;
    if (found === TWO_FACTOR_MISSING) throw twoFactorRequired();
    role = checkRole(context ? (found ?? undefined) : undefined, "edit");
  }
  const price = context?.price;
  if (!context || !price) throw invalid("/body/price_id", "no such price in this app");
  if (isExpired(price, deps.now()))
    throw new AppError("conflict", "This price has expired and cannot be paid");
  // A seller's share is never kept silently: no payment unless the seller can receive it now
  // (active, with an account whose payouts are enabled; docs/kyc.md).
  if (price.kycId) {
    const standing = sellerStanding(context.seller);
    if (!standing.payable) throw sellerNotPayable(standing.needs);
  }
  const currency = currencyOf(price.currency, "price.currency");
  const amount = amountToPay(price, input.amount, currency, "/body/amount");
  const params = await checkPayable(context, input.trigger_data_input?.params_data_input ?? {});
  // A wallet that cannot pay for gas would only fail the call after the card is held: refused now.
  if (price.triggerId && context.wallet) await checkCanPayGas(deps, context.wallet, price.networkType);
  const quote = await quotePriceItem(deps.config.money, deps.rates, {
    amount,
    currency,
    provider: input.payment_provider,
    appType: context.app.type as AppType,
    appFeeBps: context.app.appFeeBps,
  });
  const fees = quote.fees;
  checkPaymentCeiling(
    deps.config.money,
    fees.amount_total,
    input.amount === undefined ? "/body/price_id" : "/body/amount",
  );
  if (fees.amount_seller < 0n) throw new AppError("conflict", "The fees leave the seller a negative share");
  const provider = deps.paymentProviders.forMethod(input.payment_provider);
  const token = newSecret("pt_");
  const now = deps.now();
  const id = newId("pay");
  // Every column is written, so the row answered is the row stored and nothing is read back.
  const row: PaymentRow = {
    id,
    appId,
    priceId: price.id,
    status: "pending",
    method: input.payment_provider,
    providerId: provider.id,
    amount,
    currency: currency.code,
    chargeAmount: fees.amount_total,
    chargeCurrency: fees.currency.code,
    sellerAmount: fees.amount_seller,
    appAmount: fees.amount_app,
    platformAmount: fees.amount_platform,
    priceItem: quote.priceItem,
    rate: { num: String(quote.rate.ratio.num), den: String(quote.rate.ratio.den) },
    triggerId: price.triggerId,
    triggerDataInput: { params_data_input: params },
    kycId: price.kycId,
    shopperEmail: input.shopper_email?.toLowerCase() ?? null,
    deferExecution: input.defer_execution ?? false,
    executeAskedAt: null,
    paymentTokenHash: hashToken(token),
    paymentTokenSealed: sealPaymentToken(deps.custody, token, id),
    transactionResponse: {},
    confirmationStatus: {},
    createdAt: now,
    updatedAt: now,
    intentId: null,
    capturedAmount: 0n,
    refundedAmount: 0n,
    nextAction: null,
    sentTransaction: null,
    transactionId: null,
    signedAt: null,
    transactionUrl: null,
    authState: "none",
    transfers: {},
    confirmAttempts: 0,
    confirmKey: null,
    createKey: createKey ?? null,
    commandKey: null,
    transferRound: 0,
    transferPending: null,
    intentRound: 0,
  };
  return { context, row, token, price, role, actor: actorName(actor) };
}

/**
 * Writes the decided payment in one statement (`writeIf`): the payment, its first event and the
 * `payment.pending` webhook deliveries, all or none, and none unless every row the decision's
 * context came from is unchanged (`unchangedSince`). Answers nothing when a row has changed; the
 * payment an earlier try of the same Idempotency-Key wrote, if there is one.
 */
async function writeIfUnchanged(
  deps: Deps,
  key: ContextKey,
  decision: Awaited<ReturnType<typeof decidePayment>>,
) {
  const { context, row, price, role, token } = decision;
  const { id, createdAt: now, createKey } = row;
  const event = paymentEventRow(id, null, "pending", { actor: decision.actor, reason: "created" }, now);
  const values: Record<string, unknown> = unchangedSinceValues(key, context);
  const deliveries = fillEventParts(
    deps,
    context.endpoints,
    { appId: key.appId, type: "payment.pending", data: paymentEventData(id, "pending", null, "created", 1) },
    "announced",
    values,
  );
  const template = openTemplate(deps, { keyed: createKey !== null, deliveries }, row, event);
  fillRow(template.payment, row, values);
  fillRow(template.event, event, values);
  const statement = withValues(template.statement, values);
  const [result] = await statementRunner(deps.database)(statement);
  if (result?.ok !== true) return undefined;
  const app = presentApp(context.app, context.owner, role, deps.config.publicUrl);
  if (typeof result.earlier_id === "string") {
    const [stored] = await deps.db.select().from(payments).where(eq(payments.id, result.earlier_id));
    // Every payment keeps its token sealed from creation on, so the replay answers the same one.
    const storedToken = openPaymentToken(deps.custody, stored);
    if (storedToken === null) throw new Error(`Payment ${stored.id} has no sealed token`);
    return { row: stored, token: storedToken, price, app, context };
  }
  // No job unless an endpoint listens: the provider intent is made by the confirm's job
  // (docs/decisions.md, "The provider intent, made at the confirm").
  if (deliveries > 0) deps.jobs.relaySoon();
  return { row, token, price, app, context };
}

/** The create's statement by shape, for each job queue (a test's own `jobs` builds its own). */
const openTemplates = new WeakMap<Deps["jobs"], Map<string, ReturnType<typeof buildOpenTemplate>>>();

/**
 * The create's statement with placeholders for every value, built once per shape (an
 * Idempotency-Key or not, how many webhook deliveries) and given each create's values by
 * `withValues`: building and compiling it afresh for every create cost the API process about as
 * much CPU as every other statement-building step together (docs/benchmarks.md, "The create's
 * statement, built once"). The rows' keys are the first row's; `fillRow` refuses a row with others.
 */
function openTemplate(
  deps: Pick<Deps, "jobs">,
  shape: { keyed: boolean; deliveries: number },
  row: PaymentRow,
  event: typeof paymentEvents.$inferInsert,
) {
  let byShape = openTemplates.get(deps.jobs);
  if (!byShape) {
    byShape = new Map();
    openTemplates.set(deps.jobs, byShape);
  }
  const name = `${shape.keyed}:${shape.deliveries}`;
  let template = byShape.get(name);
  if (!template) {
    template = buildOpenTemplate(deps, shape, rowKeys(row), rowKeys(event));
    byShape.set(name, template);
  }
  return template;
}

function buildOpenTemplate(
  deps: Pick<Deps, "jobs">,
  shape: { keyed: boolean; deliveries: number },
  paymentKeys: string[],
  eventKeys: string[],
) {
  const payment = rowTemplate(payments, "payment", paymentKeys);
  const event = rowTemplate(paymentEvents, "event", eventKeys);
  const statement = writeIf({
    first: {
      current_context: sql`select ${unchangedSince()} as ok`,
      // A create retried with its Idempotency-Key after its first try wrote and then lost its
      // answer (the process died) finds that payment instead of writing a second one.
      earlier: shape.keyed
        ? sql`select id from "payments" where "app_id" = ${sql.placeholder("app_id")}
            and "create_key" = ${sql.placeholder("payment.createKey")}`
        : sql`select null::text as id where false`,
    },
    condition: sql`(select ok from current_context) and not exists (select 1 from earlier)`,
    writes: (when) => [
      insertRow(payments, payment.placeholders, when),
      insertRow(paymentEvents, event.placeholders, when),
      ...eventPartsTemplate(deps, shape.deliveries, "announced", when),
    ],
    answer: sql`(select ok from current_context) as ok, (select id from earlier) as earlier_id`,
  });
  return { statement, payment, event };
}
