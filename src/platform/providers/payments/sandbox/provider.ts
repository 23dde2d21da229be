import { and, eq, lte, sql } from "drizzle-orm";
import {
  type Database,
  drizzleRunner,
  type Executor,
  insertRow,
  type Runner,
  type Tx,
} from "../../../db/index.ts";
import { invalid, notFound } from "../../../http/errors.ts";
import { newId } from "../../../ids.ts";
import { SandboxKycProvider } from "../../kyc/sandbox.ts";
import type {
  CallOptions,
  ConfirmInput,
  CreateIntentInput,
  PaymentMethodInput,
  PaymentProvider,
  ProviderEvent,
  ProviderIntent,
  ProviderRefund,
  ProviderSettlement,
  ProviderTransfer,
  ProviderTransferReversal,
  RefundInput,
  ReverseTransferInput,
  TransferInput,
} from "../types.ts";
import { providerUnavailable } from "../types.ts";
import { answerOf, LostAnswers, OUTAGE, OUTAGE_MESSAGE, type Result } from "./answers.ts";
import { authenticationOutcome, confirmDecision } from "./confirm.ts";
import { createConfirmed } from "./create-confirmed.ts";
import { eventRow, SANDBOX_WEBHOOK_SECRET, signEvent, verifyEvent } from "./events.ts";
import { once, onceInOneStatement } from "./idempotency.ts";
import {
  type IntentRow,
  newIntentRow,
  presentIntent,
  settleIntent,
  unexpectedState,
  updateIntent,
} from "./intent-rows.ts";
import { makePaymentMethod, type SandboxPaymentMethod } from "./payment-methods.ts";
import { sandboxEvents, sandboxFlags, sandboxIntents, sandboxRefunds } from "./tables.ts";
import {
  type ConnectedAccounts,
  checkDestination,
  checkSourceLeft,
  insertReversal,
  insertTransfer,
  stripeTransfers,
} from "./transfers.ts";
import { type IntentDecision, type KnownIntent, LastWritten, onceOnUnchangedIntent } from "./unlocked.ts";

export interface SandboxOptions {
  db: Database;
  /** Runs the one-statement writes (named and prepared on PostgreSQL); Drizzle's by default. */
  run?: Runner;
  now: () => Date;
  /** Base of the 3-D Secure page URL the sandbox answers as the intent's next action. */
  publicUrl: string;
  /** How long a bank debit stays `processing` before it settles (ACH takes days; tests want less). */
  settleAfterMs?: number;
  webhookSecret?: string;
  /** The connected accounts transfers may go to; by default the KYC sandbox's, in the same database. */
  connectedAccounts?: ConnectedAccounts;
}

/**
 * A real, stateful provider that never leaves the machine: intents, refunds and transfers live in
 * the sandbox tables, outcomes follow Stripe's test numbers, and every call is idempotent per key.
 */
export class SandboxPaymentProvider implements PaymentProvider {
  readonly id = "sandbox" as const;
  readonly webhookSecret: string;
  private readonly options: SandboxOptions;
  private readonly run: Runner;
  private readonly accounts: ConnectedAccounts;

  constructor(options: SandboxOptions) {
    this.options = options;
    this.run = options.run ?? drizzleRunner(options.db);
    const kyc = new SandboxKycProvider(options.db);
    this.accounts = options.connectedAccounts ?? ((id, tx) => kyc.findAccount(id, tx));
    this.webhookSecret = options.webhookSecret ?? SANDBOX_WEBHOOK_SECRET;
  }

  /** Answers this process loses (`lose("transfer", 1)`): the call made, its answer never arriving. */
  readonly lostAnswers = new LostAnswers();

  /** Intents as this process last wrote them without a transaction (`callOnIntent`). */
  private readonly written = new LastWritten();

  /** Outage mode, shared by every process: each call then fails as an unreachable provider does. */
  async setOutage(on: boolean): Promise<void> {
    await this.options.db
      .insert(sandboxFlags)
      .values({ name: OUTAGE, enabled: on })
      .onConflictDoUpdate({ target: sandboxFlags.name, set: { enabled: on } });
  }

  private async available(): Promise<void> {
    const [flag] = await this.options.db.select().from(sandboxFlags).where(eq(sandboxFlags.name, OUTAGE));
    if (flag?.enabled) throw providerUnavailable(OUTAGE_MESSAGE);
  }

  private async call<T>(
    options: CallOptions,
    operation: string,
    params: unknown,
    work: (tx: Tx, account: string) => Promise<Result<T>>,
  ): Promise<T> {
    const account = options.connectedAccount ?? "";
    const result = await once(
      this.options.db,
      { account, key: options.idempotencyKey, operation, params },
      OUTAGE,
      (tx) => work(tx, account),
    );
    return this.lostAnswers.deliver(operation, answerOf(result));
  }

  /**
   * `call` for a call that only changes the intent it works on: `decide` says what, given the
   * intent. Without a transaction while nothing stands in the way (`onceOnUnchangedIntent`: two
   * statements); otherwise, a repeat or a race, on the locked intent inside `once`, as `call`.
   */
  private async callOnIntent(
    options: CallOptions,
    operation: string,
    params: unknown,
    intentId: string,
    decide: (row: IntentRow) => Promise<IntentDecision<Result<ProviderIntent>>>,
  ): Promise<ProviderIntent> {
    const account = options.connectedAccount ?? "";
    const scope = { account, key: options.idempotencyKey, operation, params };
    const now = this.options.now();
    const attempt = (known?: KnownIntent) =>
      onceOnUnchangedIntent(this.run, this.options.db, scope, OUTAGE, intentId, now, decide, known);
    // A call that needs only the intent decides on it as this process last wrote it, if it did (a
    // capture after the confirm: a read fewer). If the intent moved since, or `decide` refuses the
    // row as known (a repeat of a call already made, whose stored answer the read finds), it is
    // read after all, and what that way decides or throws is the answer.
    const known = this.written.get(intentId);
    const quick = (known && (await attempt(known).catch(() => undefined))) || (await attempt());
    if (quick && "written" in quick && quick.written) this.written.set(intentId, quick.written);
    if (quick) return this.lostAnswers.deliver(operation, answerOf(quick));
    return this.call(options, operation, params, async (tx) => {
      const row = await this.lock(tx, intentId, account);
      const decision = await decide(row);
      return decision.answer(await this.update(tx, row, decision.set));
    });
  }

  private async lock(tx: Tx, intentId: string, account: string): Promise<IntentRow> {
    const [row] = await tx
      .select()
      .from(sandboxIntents)
      .where(and(eq(sandboxIntents.id, intentId), eq(sandboxIntents.account, account)))
      .for("update");
    if (!row) throw notFound("PaymentIntent");
    return this.settle(tx, row);
  }

  private update(tx: Tx, row: IntentRow, set: Partial<IntentRow>): Promise<IntentRow> {
    return updateIntent(tx, row, set, this.options.now());
  }

  private settle(tx: Tx, row: IntentRow): Promise<IntentRow> {
    return settleIntent(tx, row, this.options.now(), this.options.settleAfterMs ?? 5000);
  }

  /** Settles (or returns) every bank debit that is due; a job can call this to have their events emitted. */
  async settleDue(): Promise<number> {
    const due = await this.options.db
      .select({ id: sandboxIntents.id, account: sandboxIntents.account })
      .from(sandboxIntents)
      .where(lte(sandboxIntents.settlesAt, this.options.now()));
    for (const { id, account } of due) {
      await this.options.db.transaction((tx) => this.lock(tx, id, account));
    }
    return due.length;
  }

  async createIntent(input: CreateIntentInput, options: CallOptions): Promise<ProviderIntent> {
    const account = options.connectedAccount ?? "";
    const row = newIntentRow(input, account, this.options.now());
    const intent = presentIntent(row);
    // Every payment makes one intent: its claim, intent and event are one statement.
    const result = await onceInOneStatement<Result<ProviderIntent>>(
      this.run,
      this.options.db,
      { account, key: options.idempotencyKey, operation: "create_intent", params: input },
      OUTAGE,
      { ok: intent },
      (when) => [
        insertRow(sandboxIntents, row, when),
        insertRow(sandboxEvents, eventRow(row, intent, "payment_intent.created"), when),
      ],
    );
    if ("outage" in result) throw providerUnavailable(OUTAGE_MESSAGE);
    if ("declined" in result.answer) throw new Error("An intent's creation is never declined");
    return result.answer.ok;
  }

  async createAndConfirmIntent(
    input: CreateIntentInput,
    confirm: ConfirmInput,
    options: CallOptions,
  ): Promise<ProviderIntent> {
    const { result, written } = await createConfirmed(this.run, this.options.db, input, confirm, {
      account: options.connectedAccount ?? "",
      key: options.idempotencyKey,
      outageFlag: OUTAGE,
      now: this.options.now(),
      publicUrl: this.options.publicUrl,
      settleAfterMs: this.options.settleAfterMs ?? 5000,
    });
    if (written) this.written.set(written.row.id, written);
    return this.lostAnswers.deliver("create_and_confirm_intent", answerOf(result));
  }

  async getIntent(intentId: string, options: { connectedAccount?: string } = {}): Promise<ProviderIntent> {
    await this.available();
    return this.options.db.transaction(async (tx) =>
      presentIntent(await this.lock(tx, intentId, options.connectedAccount ?? "")),
    );
  }

  async intentsOfPayment(paymentId: string): Promise<ProviderIntent[]> {
    await this.available();
    const rows = await this.options.db
      .select()
      .from(sandboxIntents)
      .where(
        and(eq(sandboxIntents.account, ""), sql`${sandboxIntents.metadata}->>'payment_id' = ${paymentId}`),
      );
    return rows.map(presentIntent);
  }

  /** The sandbox's own record of what an intent took and gave back; it charges no fee. */
  async settlement(intentId: string): Promise<ProviderSettlement> {
    const [row] = await this.options.db
      .select({ received: sandboxIntents.amountReceived, refunded: sandboxIntents.amountRefunded })
      .from(sandboxIntents)
      .where(eq(sandboxIntents.id, intentId));
    if (!row) throw notFound("PaymentIntent");
    return { captured: row.received, refunded: row.refunded, fee: null };
  }

  /** An intent by id on whichever account it lives: for the shopper's 3-D Secure page. */
  async findIntent(intentId: string): Promise<ProviderIntent> {
    const [found] = await this.options.db
      .select({ account: sandboxIntents.account })
      .from(sandboxIntents)
      .where(eq(sandboxIntents.id, intentId));
    if (!found) throw notFound("PaymentIntent");
    return this.getIntent(intentId, { connectedAccount: found.account || undefined });
  }

  /**
   * A card or bank account made into a payment method id, its numbers dropped; the id says what
   * it leads to, so nothing is stored (payment-methods.ts).
   */
  makePaymentMethod(input: Exclude<PaymentMethodInput, { type: "token" }>): SandboxPaymentMethod | string {
    return makePaymentMethod(input, this.options.now());
  }

  async confirmIntent(intentId: string, input: ConfirmInput, options: CallOptions): Promise<ProviderIntent> {
    const params = { intentId, input };
    return this.callOnIntent(options, "confirm_intent", params, intentId, async (row) =>
      confirmDecision(row, input, {
        now: this.options.now(),
        publicUrl: this.options.publicUrl,
        settleAfterMs: this.options.settleAfterMs ?? 5000,
      }),
    );
  }

  /**
   * The shopper's answer to the 3-D Secure step (what the hosted page's sandbox challenge posts):
   * passed, the card is authorised and held; failed, the intent wants another payment method.
   */
  async completeAuthentication(intentId: string, passed: boolean): Promise<ProviderIntent> {
    await this.available();
    return this.options.db.transaction(async (tx) => {
      const [found] = await tx.select().from(sandboxIntents).where(eq(sandboxIntents.id, intentId));
      if (!found) throw notFound("PaymentIntent");
      const row = await this.lock(tx, intentId, found.account);
      return presentIntent(await this.update(tx, row, authenticationOutcome(row, passed)));
    });
  }

  async captureIntent(intentId: string, amount: bigint | undefined, options: CallOptions) {
    return this.callOnIntent(options, "capture_intent", { intentId, amount }, intentId, async (row) => {
      if (row.status !== "requires_capture") throw unexpectedState(row, "captured");
      const captured = amount ?? row.amountCapturable;
      if (captured <= 0n || captured > row.amountCapturable) {
        throw invalid("/amount_to_capture", "must be positive and at most the amount capturable");
      }
      return {
        set: { status: "succeeded", amountReceived: captured, amountCapturable: 0n },
        answer: (next) => ({ ok: presentIntent(next) }),
      };
    });
  }

  async cancelIntent(intentId: string, options: CallOptions): Promise<ProviderIntent> {
    return this.call(options, "cancel_intent", { intentId }, async (tx, account) => {
      const row = await this.lock(tx, intentId, account);
      const cancellable = [
        "requires_payment_method",
        "requires_confirmation",
        "requires_action",
        "requires_capture",
      ];
      if (!cancellable.includes(row.status)) throw unexpectedState(row, "canceled");
      const next = await this.update(tx, row, { status: "canceled", amountCapturable: 0n, nextAction: null });
      return { ok: presentIntent(next) };
    });
  }

  async refund(input: RefundInput, options: CallOptions): Promise<ProviderRefund> {
    return this.call(options, "refund", input, async (tx, account) => {
      const row = await this.lock(tx, input.intentId, account);
      if (row.status !== "succeeded") throw unexpectedState(row, "refunded");
      const remaining = row.amountReceived - row.amountRefunded;
      const amount = input.amount ?? remaining;
      if (amount <= 0n || amount > remaining) {
        throw invalid("/amount", `must be positive and at most the ${remaining} not yet refunded`);
      }
      await tx
        .update(sandboxIntents)
        .set({ amountRefunded: row.amountRefunded + amount, updatedAt: this.options.now() })
        .where(eq(sandboxIntents.id, row.id));
      const [refund] = await tx
        .insert(sandboxRefunds)
        .values({
          id: newId("re"),
          intentId: row.id,
          amount,
          status: "succeeded",
          reason: input.reason ?? null,
          createdAt: this.options.now(),
        })
        .returning();
      return { ok: { id: refund.id, intentId: row.id, amount, status: "succeeded" as const } };
    });
  }

  async transfer(input: TransferInput, options: CallOptions): Promise<ProviderTransfer> {
    if (input.amount <= 0n) throw invalid("/amount", "must be positive");
    return this.call(options, "transfer", input, async (tx, account) => {
      // Inside the key's claim: a repeat of a transfer made is answered as made, whatever the
      // account's state now, and a refusal keeps nothing under the key (as Stripe's validation).
      await checkDestination(tx, this.accounts, input.destination);
      const currency = input.currency.toLowerCase();
      if (input.sourceIntentId) {
        const row = await this.lock(tx, input.sourceIntentId, account);
        if (row.status !== "succeeded") throw unexpectedState(row, "transferred from");
        if (row.currency !== currency) throw invalid("/currency", "must be the source charge's currency");
        await checkSourceLeft(tx, row, input.amount);
      }
      return { ok: await insertTransfer(tx, input, this.options.now()) };
    });
  }

  async reverseTransfer(
    transferId: string,
    input: ReverseTransferInput,
    options: CallOptions,
  ): Promise<ProviderTransferReversal> {
    return this.call(options, "reverse_transfer", { transferId, ...input }, async (tx) => ({
      ok: await insertReversal(tx, transferId, input, this.options.now()),
    }));
  }

  /** Transfers as Stripe answers them, for the sandbox's read routes (`GET /sandbox/v1/transfers`). */
  async listTransfers(filter: { id?: string; transferGroup?: string; destination?: string }) {
    return stripeTransfers(this.options.db, filter);
  }

  /** The signed webhook request for one recorded event, as the sandbox would deliver it. */
  async signedEvent(db: Executor, eventId: string) {
    return signEvent(db, eventId, this.webhookSecret, this.options.now());
  }

  parseWebhook(
    rawBody: Buffer | string,
    headers: Record<string, string | string[] | undefined>,
  ): ProviderEvent {
    return verifyEvent(rawBody, headers, this.webhookSecret, this.options.now());
  }
}
