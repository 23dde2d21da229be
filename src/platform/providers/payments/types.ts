import { AppError } from "../../http/errors.ts";

/** The two ways a shopper pays, as the interface's `payment_provider` names them. */
export const PAYMENT_METHODS = ["card", "us_bank_account"] as const;
export type PaymentMethodType = (typeof PAYMENT_METHODS)[number];

/** Provider implementations, chosen by the PAYMENTS_PROVIDER setting. */
export const PROVIDER_IDS = ["sandbox", "stripe"] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

/** Statuses as Stripe's PaymentIntents name them; the sandbox uses the same ones. */
export type IntentStatus =
  | "requires_payment_method"
  | "requires_confirmation"
  | "requires_action"
  | "requires_capture"
  | "processing"
  | "succeeded"
  | "canceled";

export interface IntentError {
  /** `card_declined`, `authentication_failed`, `account_closed`… */
  code: string;
  /** Stripe's decline code when the issuer gave one: `generic_decline`, `insufficient_funds`… */
  declineCode: string | null;
  message: string;
}

export interface NextAction {
  /** A 3-D Secure (or other) step the shopper completes at `url`, then comes back to `returnUrl`. */
  type: "redirect_to_url";
  url: string;
  /** Where the step sends the shopper afterwards, when the confirm call named one. */
  returnUrl: string | null;
}

export interface ProviderIntent {
  id: string;
  status: IntentStatus;
  method: PaymentMethodType;
  /** Minor units. */
  amount: bigint;
  amountCapturable: bigint;
  amountReceived: bigint;
  /** Lower-case ISO 4217 code, as Stripe answers it. */
  currency: string;
  captureMethod: "manual" | "automatic";
  nextAction: NextAction | null;
  lastError: IntentError | null;
  /** What the shopper paid with, masked: `visa •••• 4242`, `STRIPE TEST BANK •••• 6789`. */
  paymentMethodLabel: string | null;
  metadata: Record<string, string>;
}

export interface ProviderRefund {
  id: string;
  intentId: string;
  amount: bigint;
  status: "pending" | "succeeded" | "failed" | "canceled";
}

export interface ProviderTransfer {
  id: string;
  amount: bigint;
  currency: string;
  destination: string;
  sourceIntentId: string | null;
}

/**
 * Money already collected that the provider took back: a bank debit returned by the shopper's bank
 * after it succeeded (Stripe `charge.failed`), or disputed (`charge.dispute.created`).
 */
export interface ProviderReversal {
  intentId: string;
  /** The bank's or the provider's reason: `account_closed`, `debit_not_authorized`… */
  code: string;
  message: string;
}

/**
 * What the provider's own books say of an intent's money, for reconciliation: captured and
 * refunded in minor units, and the provider's fee when it says (Stripe's balance transaction).
 */
export interface ProviderSettlement {
  captured: bigint;
  refunded: bigint;
  fee: bigint | null;
}

/** A reversal of (part of) a transfer: the money goes back from the connected account. */
export interface ProviderTransferReversal {
  id: string;
  transferId: string;
  amount: bigint;
  currency: string;
}

/** An inbound provider event, verified and reduced to what the payments lifecycle needs. */
export interface ProviderEvent {
  id: string;
  /** The provider's own type, e.g. `payment_intent.succeeded`. */
  type: string;
  /** When the provider made it; lets late events be recognised as such. */
  createdAt: Date;
  /** Set for payment-intent events. */
  intent: ProviderIntent | null;
  /** The connected account the event happened on, for Connect events. */
  account: string | null;
  /** Set for charge events that take collected money back (a return or a dispute). */
  reversal?: ProviderReversal | null;
}

export type PaymentMethodInput =
  | { type: "card"; number: string; expMonth: number; expYear: number; cvc: string }
  | {
      type: "us_bank_account";
      routingNumber: string;
      accountNumber: string;
      accountHolderName: string;
      accountHolderType?: "individual" | "company";
    }
  /** A payment method the provider made in the shopper's browser (Stripe.js `pm_…`). */
  | { type: "token"; id: string };

/** Every call carries an idempotency key: a retried job repeats the call without a second effect. */
export interface CallOptions {
  idempotencyKey: string;
  /** Act on a connected account (Stripe-Account header); absent means the platform account. */
  connectedAccount?: string;
}

export interface CreateIntentInput {
  amount: bigint;
  currency: string;
  method: PaymentMethodType;
  description?: string;
  metadata?: Record<string, string>;
  /** Groups the transfers made from this payment (Stripe `transfer_group`). */
  transferGroup?: string;
  /**
   * A card charged as soon as it is authorised (Stripe's `capture_method: automatic`), for a payment
   * with nothing to happen between; otherwise a card is held until captured. Bank debits cannot be
   * held and are always collected when confirmed.
   */
  chargeAtOnce?: boolean;
}

export interface ConfirmInput {
  paymentMethod: PaymentMethodInput;
  /** Where a 3-D Secure step sends the shopper back to. */
  returnUrl?: string;
  /** Bank debits need the shopper's mandate acceptance (ACH rules): where and how it was given. */
  mandate?: { ipAddress: string; userAgent: string };
}

export interface RefundInput {
  intentId: string;
  /** Absent: everything not yet refunded. */
  amount?: bigint;
  reason?: "duplicate" | "fraudulent" | "requested_by_customer";
}

export interface TransferInput {
  amount: bigint;
  currency: string;
  /** The connected account (`acct_…`) that receives the money. */
  destination: string;
  /** The charge the money comes from, so it is transferred even before it is available. */
  sourceIntentId?: string;
  transferGroup?: string;
  metadata?: Record<string, string>;
}

export interface ReverseTransferInput {
  /** Absent: everything not yet reversed. */
  amount?: bigint;
  metadata?: Record<string, string>;
}

/**
 * One contract for every payment provider. Cards are authorised and held (manual capture); bank
 * debits cannot be held and are collected when confirmed. Declines throw `PaymentDeclinedError`,
 * an unreachable provider throws `provider_unavailable`, so a job retries it.
 */
export interface PaymentProvider {
  readonly id: ProviderId;
  createIntent(input: CreateIntentInput, options: CallOptions): Promise<ProviderIntent>;
  getIntent(intentId: string, options?: Omit<CallOptions, "idempotencyKey">): Promise<ProviderIntent>;
  confirmIntent(intentId: string, input: ConfirmInput, options: CallOptions): Promise<ProviderIntent>;
  /**
   * Creates an intent and confirms it in one call, answering (or throwing, a decline with the
   * intent) as `confirmIntent` would; a provider without it is called twice. Keyed as one request:
   * a repeat is answered the same intent and outcome.
   */
  createAndConfirmIntent?(
    input: CreateIntentInput,
    confirm: ConfirmInput,
    options: CallOptions,
  ): Promise<ProviderIntent>;
  captureIntent(intentId: string, amount: bigint | undefined, options: CallOptions): Promise<ProviderIntent>;
  cancelIntent(intentId: string, options: CallOptions): Promise<ProviderIntent>;
  /**
   * The platform's intents made for a payment (the `payment_id` of their metadata), found without
   * making anything: what a call whose answer was lost left there. Stripe's search lags its
   * writes by up to a minute.
   */
  intentsOfPayment(paymentId: string): Promise<ProviderIntent[]>;
  refund(input: RefundInput, options: CallOptions): Promise<ProviderRefund>;
  /** Refused with `TransferRefusedError` when the destination cannot receive it. */
  transfer(input: TransferInput, options: CallOptions): Promise<ProviderTransfer>;
  /** Takes a transfer back from its connected account (Stripe's transfer reversal). */
  reverseTransfer(
    transferId: string,
    input: ReverseTransferInput,
    options: CallOptions,
  ): Promise<ProviderTransferReversal>;
  /** The provider's record of an intent's money (reconciliation reads it). */
  settlement(intentId: string): Promise<ProviderSettlement>;
  /** Verifies the signature on the raw body (never a re-serialised one) and parses the event. */
  parseWebhook(
    rawBody: Buffer | string,
    headers: Record<string, string | string[] | undefined>,
  ): ProviderEvent;
}

/** A declined payment: the shopper may try another card; the intent stays payable. */
export class PaymentDeclinedError extends AppError {
  readonly declineCode: string;
  readonly intent: ProviderIntent | null;
  constructor(declineCode: string, message: string, intent: ProviderIntent | null) {
    super("payment_declined", message);
    this.declineCode = declineCode;
    this.intent = intent;
  }
}

/**
 * The provider answered that it made no transfer (or reversal) and will not make this one: the
 * destination does not exist or cannot receive transfers, the transfer has nothing left to
 * reverse. `reason` is the provider's own code (Stripe's: `resource_missing`,
 * `insufficient_capabilities_for_transfer`, `balance_insufficient`…). Trying the same call again
 * cannot help; something must change first.
 */
export class TransferRefusedError extends AppError {
  readonly reason: string;
  constructor(reason: string, message: string) {
    super("conflict", message);
    this.reason = reason;
  }
}

export const providerUnavailable = (detail: string) => new AppError("provider_unavailable", detail);

export const badSignature = () =>
  new AppError("validation_failed", "The webhook signature is missing, stale or does not match its body");
