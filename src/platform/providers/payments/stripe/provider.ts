import Stripe from "stripe";
import { AppError, invalid, notFound } from "../../../http/errors.ts";
import {
  fromStripeIntent,
  reversalOf,
  type StripeIntentShape,
  type StripeReversalShape,
} from "../stripe-shape.ts";
import type {
  CallOptions,
  ConfirmInput,
  CreateIntentInput,
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
import { badSignature, PaymentDeclinedError, providerUnavailable, TransferRefusedError } from "../types.ts";

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** Where the API is: Stripe's by default; tests point it at a loopback stand-in. */
  host?: string;
  port?: number;
  protocol?: "http" | "https";
  /** The SDK's own retries of network errors (same idempotency key); jobs retry beyond that. */
  maxNetworkRetries?: number;
  timeoutMs?: number;
}

interface StripeFailure {
  type?: string;
  code?: string;
  decline_code?: string;
  statusCode?: number;
  message?: string;
  payment_intent?: StripeIntentShape;
}

/** Stripe's error classes as this service's typed errors: declines, outages, state conflicts. */
function translate(error: unknown): never {
  const e = error as StripeFailure;
  if (e.type === "StripeCardError") {
    const intent = e.payment_intent ? fromStripeIntent(e.payment_intent) : null;
    throw new PaymentDeclinedError(
      e.decline_code ?? e.code ?? "card_declined",
      e.message ?? "Declined",
      intent,
    );
  }
  if (
    e.type === "StripeConnectionError" ||
    e.type === "StripeAPIError" ||
    e.type === "StripeRateLimitError" ||
    (e.statusCode ?? 0) >= 500
  ) {
    throw providerUnavailable("Stripe could not be reached or failed; the call will be retried");
  }
  if (e.type === "StripeIdempotencyError") {
    throw new AppError(
      "idempotency_key_reused",
      "This idempotency key was already used for another Stripe request",
    );
  }
  if (e.code === "payment_intent_unexpected_state") {
    throw new AppError("invalid_state_transition", e.message ?? "The PaymentIntent is in another state");
  }
  if (e.statusCode === 404) throw notFound("Stripe object");
  throw error;
}

/**
 * A transfer or reversal Stripe refused (400/404 `invalid_request_error`: no such destination,
 * `insufficient_capabilities_for_transfer`, `balance_insufficient`…) is a refusal with Stripe's
 * code; outages and the rest are translated as for every call.
 */
function translateTransfer(error: unknown): never {
  const e = error as StripeFailure;
  if (e.type === "StripeInvalidRequestError" && (e.statusCode === 400 || e.statusCode === 404)) {
    throw new TransferRefusedError(e.code ?? "transfer_refused", e.message ?? "Stripe refused the transfer");
  }
  return translate(error);
}

function createParams(input: CreateIntentInput): Stripe.PaymentIntentCreateParams {
  return {
    amount: Number(input.amount),
    currency: input.currency.toLowerCase(),
    allowed_payment_method_types: [input.method],
    // Cards are authorised and held until the contract call succeeds, unless nothing is to happen
    // between (`chargeAtOnce`); ACH cannot be held.
    capture_method: input.method === "card" && !input.chargeAtOnce ? "manual" : "automatic",
    description: input.description,
    metadata: input.metadata,
    transfer_group: input.transferGroup,
  };
}

/** What a confirm sends, in the create's types (`confirm: true`), which the confirm takes too. */
type ConfirmParams = Pick<
  Stripe.PaymentIntentCreateParams,
  "payment_method" | "payment_method_data" | "mandate_data" | "return_url"
>;

/** What confirming with `input` sends: a Stripe.js payment method, or a bank account with its mandate. */
function confirmParams(input: ConfirmInput): ConfirmParams {
  const method = input.paymentMethod;
  let params: ConfirmParams;
  if (method.type === "token") {
    params = { payment_method: method.id };
  } else if (method.type === "us_bank_account") {
    if (!input.mandate) throw invalid("/mandate", "a bank debit needs the shopper's mandate acceptance");
    params = {
      payment_method_data: {
        type: "us_bank_account",
        us_bank_account: {
          routing_number: method.routingNumber,
          account_number: method.accountNumber,
          account_holder_type: method.accountHolderType ?? "individual",
        },
        billing_details: { name: method.accountHolderName },
      },
      mandate_data: {
        customer_acceptance: {
          type: "online",
          online: { ip_address: input.mandate.ipAddress, user_agent: input.mandate.userAgent },
        },
      },
    };
  } else {
    // Raw card numbers never reach this server with Stripe: Stripe.js makes a pm_… in the browser.
    throw invalid("/payment_method", "with Stripe a card is given as a Stripe.js payment method (pm_…)");
  }
  if (input.returnUrl) params.return_url = input.returnUrl;
  return params;
}

function requestOptions(options: Partial<CallOptions>) {
  return {
    ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
    ...(options.connectedAccount ? { stripeAccount: options.connectedAccount } : {}),
  };
}

const asIntent = (pi: unknown): ProviderIntent => fromStripeIntent(pi as StripeIntentShape);

/** Stripe PaymentIntents (manual capture for cards), refunds and Connect transfers. */
export class StripePaymentProvider implements PaymentProvider {
  readonly id = "stripe" as const;
  private readonly stripe: Stripe;
  private readonly webhookSecret: string;

  constructor(options: StripeProviderOptions) {
    this.stripe = new Stripe(options.secretKey, {
      host: options.host,
      port: options.port,
      protocol: options.protocol,
      maxNetworkRetries: options.maxNetworkRetries ?? 2,
      timeout: options.timeoutMs ?? 20_000,
    });
    this.webhookSecret = options.webhookSecret;
  }

  async createIntent(input: CreateIntentInput, options: CallOptions): Promise<ProviderIntent> {
    const pi = await this.stripe.paymentIntents
      .create(createParams(input), requestOptions(options))
      .catch(translate);
    return asIntent(pi);
  }

  /**
   * Stripe's `confirm: true` on the create: one request where two were made. A decline is Stripe's
   * card error carrying the intent it made (`payment_intent`), as a confirm's is.
   */
  async createAndConfirmIntent(
    input: CreateIntentInput,
    confirm: ConfirmInput,
    options: CallOptions,
  ): Promise<ProviderIntent> {
    const params = { ...createParams(input), ...confirmParams(confirm), confirm: true };
    const pi = await this.stripe.paymentIntents.create(params, requestOptions(options)).catch(translate);
    return asIntent(pi);
  }

  async getIntent(intentId: string, options: { connectedAccount?: string } = {}): Promise<ProviderIntent> {
    const pi = await this.stripe.paymentIntents
      .retrieve(intentId, {}, requestOptions(options))
      .catch(translate);
    return asIntent(pi);
  }

  async confirmIntent(intentId: string, input: ConfirmInput, options: CallOptions): Promise<ProviderIntent> {
    const pi = await this.stripe.paymentIntents
      .confirm(intentId, confirmParams(input), requestOptions(options))
      .catch(translate);
    return asIntent(pi);
  }

  async captureIntent(intentId: string, amount: bigint | undefined, options: CallOptions) {
    const params = amount === undefined ? {} : { amount_to_capture: Number(amount) };
    const pi = await this.stripe.paymentIntents
      .capture(intentId, params, requestOptions(options))
      .catch(translate);
    return asIntent(pi);
  }

  async intentsOfPayment(paymentId: string): Promise<ProviderIntent[]> {
    // Our payment ids are letters, digits and `_`: nothing in them needs quoting in the query.
    const found = await this.stripe.paymentIntents
      .search({ query: `metadata['payment_id']:'${paymentId}'`, limit: 100 })
      .catch(translate);
    return found.data.map(asIntent);
  }

  async cancelIntent(intentId: string, options: CallOptions): Promise<ProviderIntent> {
    const pi = await this.stripe.paymentIntents
      .cancel(intentId, {}, requestOptions(options))
      .catch(translate);
    return asIntent(pi);
  }

  /**
   * The intent's charge as Stripe's books have it: captured, refunded, and the fee of its balance
   * transaction (expanded in the same call).
   */
  async settlement(intentId: string): Promise<ProviderSettlement> {
    const charges = await this.stripe.charges
      .list({ payment_intent: intentId, limit: 10, expand: ["data.balance_transaction"] })
      .catch(translate);
    let captured = 0n;
    let refunded = 0n;
    let fee: bigint | null = null;
    for (const charge of charges.data) {
      captured += BigInt(charge.amount_captured ?? 0);
      refunded += BigInt(charge.amount_refunded ?? 0);
      const balance = charge.balance_transaction;
      if (balance && typeof balance === "object") fee = (fee ?? 0n) + BigInt(balance.fee);
    }
    return { captured, refunded, fee };
  }

  async refund(input: RefundInput, options: CallOptions): Promise<ProviderRefund> {
    const refund = await this.stripe.refunds
      .create(
        {
          payment_intent: input.intentId,
          amount: input.amount === undefined ? undefined : Number(input.amount),
          reason: input.reason,
        },
        requestOptions(options),
      )
      .catch(translate);
    return {
      id: refund.id,
      intentId: input.intentId,
      amount: BigInt(refund.amount),
      status: (refund.status ?? "pending") as ProviderRefund["status"],
    };
  }

  async transfer(input: TransferInput, options: CallOptions): Promise<ProviderTransfer> {
    // Stripe ties a transfer to the charge, not the intent: look the intent's charge up first.
    let sourceTransaction: string | undefined;
    if (input.sourceIntentId) {
      const pi = await this.stripe.paymentIntents
        .retrieve(input.sourceIntentId, {}, requestOptions({ connectedAccount: options.connectedAccount }))
        .catch(translate);
      const charge = pi.latest_charge;
      if (!charge) throw new AppError("invalid_state_transition", "The source payment has no charge yet");
      sourceTransaction = typeof charge === "string" ? charge : charge.id;
    }
    const transfer = await this.stripe.transfers
      .create(
        {
          amount: Number(input.amount),
          currency: input.currency.toLowerCase(),
          destination: input.destination,
          source_transaction: sourceTransaction,
          transfer_group: input.transferGroup,
          metadata: input.metadata,
        },
        requestOptions(options),
      )
      .catch(translateTransfer);
    return {
      id: transfer.id,
      amount: BigInt(transfer.amount),
      currency: transfer.currency,
      destination: typeof transfer.destination === "string" ? transfer.destination : input.destination,
      sourceIntentId: input.sourceIntentId ?? null,
    };
  }

  async reverseTransfer(
    transferId: string,
    input: ReverseTransferInput,
    options: CallOptions,
  ): Promise<ProviderTransferReversal> {
    // Separate charges and transfers: a refund does not take the seller's transfer back by itself
    // (Stripe's `reverse_transfer` is for destination charges), a transfer reversal does.
    const reversal = await this.stripe.transfers
      .createReversal(
        transferId,
        {
          ...(input.amount === undefined ? {} : { amount: Number(input.amount) }),
          metadata: input.metadata,
        },
        requestOptions(options),
      )
      .catch(translateTransfer);
    return {
      id: reversal.id,
      transferId,
      amount: BigInt(reversal.amount),
      currency: reversal.currency,
    };
  }

  parseWebhook(
    rawBody: Buffer | string,
    headers: Record<string, string | string[] | undefined>,
  ): ProviderEvent {
    const signature = headers["stripe-signature"];
    if (typeof signature !== "string") throw badSignature();
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret);
    } catch {
      throw badSignature();
    }
    const object = event.data.object as { object?: string };
    return {
      id: event.id,
      type: event.type,
      createdAt: new Date(event.created * 1000),
      intent: object.object === "payment_intent" ? asIntent(object) : null,
      account: event.account ?? null,
      reversal: reversalOf(event.type, object as StripeReversalShape),
    };
  }
}
