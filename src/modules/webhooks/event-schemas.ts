import { type TSchema, Type } from "typebox";
import { Nullable, Timestamp } from "../../platform/http/schemas.ts";
import { EVENT_TYPES, type EventType, TEST_EVENT_TYPE } from "./event-types.ts";

/*
 * What each event's `data` holds, as the modules that emit it write it (payments' lifecycle, KYC's
 * sync, auctions' bidding and closing): the document's `webhooks` section and the SDK's typed
 * `WebhookEvent` union are made from these. A field added to an event is added here.
 */
const id = (what: string) => Type.String({ description: what });
const nullableId = (what: string) => Nullable(Type.String({ description: what }));
const amount = Nullable(Type.String({ description: "The amount in major units, formatted (e.g. `20.00`)" }));
const currency = Type.String({ description: "ISO 4217 currency code, lower case" });

const PaymentEventData = Type.Object(
  {
    id: id("The payment's id (`pay_…`)"),
    status: Type.String({ description: "The payment's status now (the event type's suffix)" }),
    previous_status: Nullable(Type.String({ description: "Its status before; null on `payment.pending`" })),
    reason: Type.String({ description: "Why it moved (`created`, `provider_paid`, …)" }),
    sequence: Type.Integer({ description: "The payment's event count, this one included: order by it" }),
  },
  { description: "A payment's status change; read the payment for the rest" },
);

const KycEventData = Type.Object(
  {
    kyc_id: id("The KYC record's id"),
    identifier: Type.String({ description: "Your identifier of the seller" }),
    previous_business_status: Type.String({ description: "The business status before" }),
    business_status: Type.String({ description: "The business status now" }),
    details_submitted: Type.Boolean({ description: "The seller has submitted their details" }),
    charges_enabled: Type.Boolean({ description: "The seller can be paid" }),
    payouts_enabled: Type.Boolean({ description: "The seller can receive payouts" }),
    needs_documents: Type.Boolean({ description: "The provider asks the seller for documents" }),
  },
  { description: "A seller's identity check changed" },
);

const bid = {
  auction_id: id("The auction's id"),
  bid_id: id("The bid's id"),
  shopper_id: id("The shopper who placed it"),
};
const winner = {
  winner_bid_id: nullableId("The winning bid now; null when none is left"),
  winner_shopper_id: nullableId("Its shopper"),
  amount,
  currency,
  payment_id: nullableId("The winning bid's payment"),
};

const DATA: Record<EventType | typeof TEST_EVENT_TYPE, TSchema> = {
  ...(Object.fromEntries(
    EVENT_TYPES.filter((type) => type.startsWith("payment.")).map((type) => [type, PaymentEventData]),
  ) as unknown as Record<EventType, TSchema>),
  "kyc.updated": KycEventData,
  "wallet.balance_low": Type.Object(
    {
      wallet_id: id("The wallet's id"),
      type: Type.String({ description: "Its chain: evm, solana, near or wax" }),
      account_id: Type.String({ description: "Its account or address on the chain" }),
      network_id: Type.String({ description: "The network it is on" }),
      balance: Type.String({ description: "Its native balance, a decimal string" }),
      balance_low_threshold: Type.String({ description: "The threshold it fell under, a decimal string" }),
      currency: Type.String({ description: "The native currency (ETH, SOL, NEAR, WAX)" }),
      checked_at: Timestamp,
    },
    { description: "A wallet a trigger uses fell under its balance threshold (docs/wallets.md)" },
  ),
  "reconciliation.mismatch": Type.Object(
    {
      id: id("The reconciliation run's id"),
      payments_checked: Type.Integer({ description: "How many payments the run compared" }),
      mismatches: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
        description: "What disagreed, one item each (docs/ledger.md, Reconciliation)",
      }),
    },
    {
      description:
        "A reconciliation run found the books disagreeing with payments, the provider or the chain",
    },
  ),
  "auction.bid_placed": Type.Object(
    { ...bid, amount, currency },
    { description: "A bid now stands: a new bid whose card hold landed, or a runner-up standing again" },
  ),
  "auction.outbid": Type.Object(
    {
      ...bid,
      outbid_by: id("The bid that beat it"),
      hold_kept: Type.Boolean({ description: "Its card hold is kept (a runner-up)" }),
    },
    { description: "A bid was beaten" },
  ),
  "auction.ended": Type.Object(
    { auction_id: id("The auction's id"), ...winner },
    { description: "The auction closed; the winner's payment is captured" },
  ),
  "auction.bid_expired": Type.Object(bid, { description: "A bid's card hold lapsed or was released" }),
  "auction.winner_changed": Type.Object(
    {
      auction_id: id("The auction's id"),
      previous_bid_id: id("The bid that won before"),
      previous_payment_id: nullableId("Its payment"),
      reason: Type.String({ description: "Why it lost the win (its charge failed, …)" }),
      ...winner,
    },
    { description: "The winner could not be charged: the next runner-up wins" },
  ),
  [TEST_EVENT_TYPE]: Type.Object(
    {
      endpoint_id: id("The endpoint it was sent to"),
      message: Type.String({ description: "What it is for" }),
    },
    { description: "A test event, sent on request to one endpoint" },
  ),
};

// When each event is sent: the document's `webhooks` section and the API's webhook guide say it.
const PAYMENT_STATUS_WHEN: Record<string, string> = {
  pending: "A payment was created, or reopened by a retry after the chain refused its call",
  hold: "A payment's money is secured: a card authorised, or a bank debit collected",
  paid: "A payment is captured and settled: its contract call (if any) confirmed, the seller's share transferred",
  failed:
    "A payment failed: a declined card, a failed debit, a refused contract call, or a bank debit returned after collection",
  cancelled: "A payment was cancelled, or its card hold released (nothing charged)",
  "failed-captured": "A collected payment's contract call failed: refund it or retry it",
  refunded: "A payment was refunded in full",
  "failed-transfers": "A payment was captured but the seller's transfer failed: retry it, or refund",
};
const WHEN: Record<string, string> = {
  ...Object.fromEntries(
    EVENT_TYPES.filter((type) => type.startsWith("payment.")).map((type) => [
      type,
      PAYMENT_STATUS_WHEN[type.slice("payment.".length)] ?? "A payment's status changed",
    ]),
  ),
  "kyc.updated": "A seller's KYC record changed: details submitted, verified, payouts enabled or paused",
  "auction.bid_placed": "A bid now stands: a new one whose card hold landed, or a runner-up again",
  "auction.outbid": "A bid was beaten by a higher one",
  "auction.ended": "An auction closed; the winner's payment is captured",
  "auction.bid_expired": "A bid's card hold lapsed or was released, and the bid was dropped",
  "auction.winner_changed": "The winner's payment failed: the runner-up wins, or nobody",
  "wallet.balance_low": "A wallet a trigger uses fell under its balance threshold (once per fall)",
  "reconciliation.mismatch":
    "A reconciliation run found the books disagreeing with the payments, the provider or the chain",
  [TEST_EVENT_TYPE]:
    "Sent on request (`POST /webhooks/{app_id}/{id}/test`) to one endpoint, whatever it subscribes to",
};

const PAYMENT_ID = "pay_01m87s3v8k4r2fjc23vtvkbtjk";
const PREVIOUS: Record<string, [previous: string | null, reason: string, sequence: number]> = {
  pending: [null, "created", 1],
  hold: ["pending", "card authorised", 2],
  paid: ["hold", "captured", 3],
  failed: ["pending", "Your card was declined.", 2],
  cancelled: ["pending", "cancelled by the app", 2],
  "failed-captured": ["hold", "the contract call reverted", 3],
  refunded: ["paid", "refunded by the app", 4],
  "failed-transfers": ["paid", "transfer failed: seller_not_payable: the seller cannot receive transfers", 4],
};
const bidExample = {
  auction_id: "auc_01m87s3v8k4r2fjc23vtvkbtjm",
  bid_id: "bid_01m87s3v8k4r2fjc23vtvkbtjn",
  shopper_id: "shp_01m87s3v8k4r2fjc23vtvkbtjr",
};
const winnerExample = {
  winner_bid_id: "bid_01m87s3v8k4r2fjc23vtvkbtjn",
  winner_shopper_id: "shp_01m87s3v8k4r2fjc23vtvkbtjr",
  amount: "120.00",
  currency: "usd",
  payment_id: PAYMENT_ID,
};

/** An example of each event's `data`, shown in the document and the webhook guide. */
const DATA_EXAMPLES: Record<EventType | typeof TEST_EVENT_TYPE, unknown> = {
  ...(Object.fromEntries(
    Object.entries(PREVIOUS).map(([status, [previous, reason, sequence]]) => [
      `payment.${status}`,
      { id: PAYMENT_ID, status, previous_status: previous, reason, sequence },
    ]),
  ) as Record<EventType, unknown>),
  "kyc.updated": {
    kyc_id: "kyc_01m87s3v8k4r2fjc23vtvkbtjp",
    identifier: "seller-4711",
    previous_business_status: "incomplete",
    business_status: "completed",
    details_submitted: true,
    charges_enabled: true,
    payouts_enabled: true,
    needs_documents: false,
  },
  "wallet.balance_low": {
    wallet_id: "wal_01m87s3v8k4r2fjc23vtvkbtjq",
    type: "evm",
    account_id: "0x8ba1f109551bd432803012645ac136ddd64dba72",
    network_id: "8453",
    balance: "0.0004",
    balance_low_threshold: "0.01",
    currency: "ETH",
    checked_at: "2026-11-22T21:00:00.000Z",
  },
  "reconciliation.mismatch": {
    id: "rec_01m87s3v8k4r2fjc23vtvkbtjs",
    payments_checked: 1250,
    mismatches: [
      {
        kind: "provider_capture",
        payment_id: PAYMENT_ID,
        ledger: "20.00",
        other: "18.00",
        message: "the provider captured another amount",
      },
    ],
  },
  "auction.bid_placed": { ...bidExample, amount: "120.00", currency: "usd" },
  "auction.outbid": { ...bidExample, outbid_by: "bid_01m87s3v8k4r2fjc23vtvkbtjt", hold_kept: true },
  "auction.ended": { auction_id: bidExample.auction_id, ...winnerExample },
  "auction.bid_expired": bidExample,
  "auction.winner_changed": {
    auction_id: bidExample.auction_id,
    previous_bid_id: "bid_01m87s3v8k4r2fjc23vtvkbtjt",
    previous_payment_id: "pay_01m87s3v8k4r2fjc23vtvkbtjv",
    reason: "the winner's charge failed",
    ...winnerExample,
  },
  [TEST_EVENT_TYPE]: {
    endpoint_id: "wh_01m87s3v8k4r2fjc23vtvkbtjw",
    message: "A test event: this endpoint receives deliveries",
  },
};

const pascal = (type: string) =>
  type
    .split(/[._-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");

/** Each event type's payload schema, named `<Type>Event` (e.g. `PaymentPaidEvent`). */
export const EVENT_SCHEMAS: Record<string, Record<string, unknown>> = Object.fromEntries(
  Object.entries(DATA).map(([type, data]) => [
    type,
    Type.Object(
      {
        id: Type.String({ description: "The event's id (`evt_…`), also the `webhook-id` header" }),
        type: Type.Literal(type, { description: "The event type" }),
        timestamp: Timestamp,
        app_id: Type.String({ description: "The app it happened in" }),
        data,
      },
      {
        title: `${pascal(type)}Event`,
        description: `\`${type}\`: ${WHEN[type]}`,
        examples: [
          {
            id: "evt_01m87s3v8k4r2fjc23vtvkbtjx",
            type,
            timestamp: "2026-11-22T21:00:00.000Z",
            app_id: "app_01m87s3v8k4r2fjc23vtvkbtjg",
            data: DATA_EXAMPLES[type as EventType],
          },
        ],
      },
    ) as unknown as Record<string, unknown>,
  ]),
);

/** Every subscription pattern an endpoint may hold: each type, each `prefix.*`, and `*`. */
export const EVENT_PATTERNS = Object.freeze([
  ...EVENT_TYPES,
  ...[...new Set(EVENT_TYPES.map((type) => type.split(".")[0]))].map((prefix) => `${prefix}.*`),
  "*",
]);
