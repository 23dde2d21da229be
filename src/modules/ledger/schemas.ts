import { Type } from "typebox";
import { pageFields } from "../../platform/http/pagination.ts";
import { AppAndIdParams } from "../../platform/http/params.ts";
import { exampleOf, nameSchemas, withExamples } from "../../platform/http/schema-docs.ts";
import { Nullable, Timestamp } from "../../platform/http/schemas.ts";
import { MAX_HISTORY_DAYS } from "./history.ts";
import { LEDGER_TYPES } from "./tables.ts";

const Decimal = (description: string) =>
  Type.String({ pattern: "^-?[0-9]+(\\.[0-9]+)?$", description: `${description}: a signed decimal string` });

export const TransferReversal = Type.Object(
  {
    id: Type.String({ description: "The provider's reversal (`trr_…`)" }),
    amount: Type.Number({ description: "What was taken back, in the transfer's currency" }),
    created_at: Timestamp,
  },
  { description: "Part or all of a transfer taken back from the seller" },
);

export const Transfer = Type.Object(
  {
    id: Type.String({ description: "The provider's transfer (`tr_…`)" }),
    amount: Type.Number({ description: "What was sent to the seller, in the charge currency" }),
    amount_reversed: Type.Number({ description: "What was taken back so far" }),
    currency: Type.String({ description: "The charge currency" }),
    kyc_id: Nullable(Type.String({ description: "The seller's KYC record" })),
    status: Type.Union([Type.Literal("paid"), Type.Literal("partially_reversed"), Type.Literal("reversed")], {
      description: "`paid`, `partially_reversed` (a partial refund took part back) or `reversed`",
    }),
    reversals: Type.Array(TransferReversal, { description: "Each reversal, oldest first" }),
    created_at: Timestamp,
  },
  { description: "A seller's share sent to their connected account, as the books record it" },
);
withExamples(TransferReversal, {
  id: "trr_1Pq2Rs3Tu4Vw5Xy6",
  amount: 4.7,
  created_at: "2026-11-25T10:00:00.000Z",
});
withExamples(Transfer, {
  id: "tr_1Pq2Rs3Tu4Vw5Xy6",
  amount: 23.5,
  amount_reversed: 4.7,
  currency: "usd",
  kyc_id: "kyc_01m87s3v8k4r2fjc23vtvkbtjm",
  status: "partially_reversed",
  reversals: [exampleOf(TransferReversal)],
  created_at: "2026-11-24T21:31:00.000Z",
});

export const BalanceTransaction = Type.Object(
  {
    id: Type.String({ description: "The entry's id (`ble_…`)" }),
    transaction_id: Type.String({
      description: "Its ledger transaction: the entries of one event, summing to zero per currency",
    }),
    account: Type.String({
      description: "`shopper_funds_held`, `app_share`, `seller_payable:<kyc_id>`… (docs/ledger.md)",
    }),
    currency: Type.String({ description: "Lower-case currency code" }),
    amount: Decimal("Money into the account (positive) or out of it (negative), major units"),
    type: Type.Union(
      LEDGER_TYPES.map((t) => Type.Literal(t)),
      { description: "The event: hold, capture, void, refund, refund_settled, transfer, …" },
    ),
    payment_id: Nullable(Type.String({ description: "The payment the event belongs to" })),
    reference: Nullable(Type.String({ description: "The provider's object (`tr_…`, `trr_…`, `re_…`)" })),
    created_at: Timestamp,
  },
  { description: "One immutable ledger entry" },
);
withExamples(BalanceTransaction, {
  id: "ble_01m87s3v8k4r2fjc23vtvkbtjm",
  transaction_id: "pay_01m87s3v8k4r2fjc23vtvkbtjm:capture",
  account: "app_share",
  currency: "usd",
  amount: "1.25",
  type: "capture",
  payment_id: "pay_01m87s3v8k4r2fjc23vtvkbtjm",
  reference: null,
  created_at: "2026-11-24T21:31:00.000Z",
});

export const ListBalanceTransactionsQuery = Type.Object(
  {
    ...pageFields,
    payment_id: Type.Optional(Type.String({ maxLength: 64, description: "Only this payment's entries" })),
    type: Type.Optional(
      Type.Union(
        LEDGER_TYPES.map((t) => Type.Literal(t)),
        { description: "Only entries of this event" },
      ),
    ),
    "created[gte]": Type.Optional(Type.String({ format: "date-time", description: "At or after (UTC)" })),
    "created[lte]": Type.Optional(Type.String({ format: "date-time", description: "At or before (UTC)" })),
  },
  { additionalProperties: false },
);

export const Balance = Type.Object(
  {
    currency: Type.String({ description: "Lower-case currency code" }),
    available: Decimal("The app's share of captured money, less what it refunded (app_share)"),
    pending: Decimal("Money held on shoppers' cards, not captured yet (shopper_funds_held)"),
    owed_to_sellers: Decimal("Sellers' shares not transferred yet (sum of seller_payable)"),
    paid_to_sellers: Decimal("Transferred to sellers, less reversals (sum of seller_paid)"),
    platform_fees: Decimal("The platform's share (platform_share)"),
    provider_fees: Decimal("What the payment provider kept (provider_fees)"),
    refunds_in_flight: Decimal("Refunds asked for that the provider has not made yet (provider_clearing)"),
    refunded: Decimal("Given back to shoppers, by refunds and bank returns (refunds)"),
  },
  { description: "An app's balance in one currency, from its books" },
);
withExamples(Balance, {
  currency: "usd",
  available: "120.5",
  pending: "25.75",
  owed_to_sellers: "0",
  paid_to_sellers: "940",
  platform_fees: "10",
  provider_fees: "29.9",
  refunds_in_flight: "0",
  refunded: "10.3",
});

export const Balances = Type.Object(
  {
    object: Type.Literal("balance", { description: "Always `balance`" }),
    balances: Type.Array(Balance, { description: "One per currency the app has money in" }),
    as_of: Timestamp,
  },
  { description: "An app's balances, one per currency it has money in" },
);
withExamples(Balances, {
  object: "balance",
  balances: [exampleOf(Balance)],
  as_of: "2026-11-25T00:00:00.000Z",
});

nameSchemas({ Transfer, TransferReversal, BalanceTransaction, Balance, Balances });

export const BalanceHistoryQuery = Type.Object(
  {
    days: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_HISTORY_DAYS,
        default: 30,
        description: "How many UTC days, today (up to now) being the last",
      }),
    ),
  },
  { additionalProperties: false },
);

export const BalanceDay = Type.Object(
  {
    date: Type.String({ format: "date", description: "The UTC day" }),
    available: Decimal("`available` at the day's end (today: now)"),
    pending: Decimal("`pending` at the day's end"),
    owed_to_sellers: Decimal("`owed_to_sellers` at the day's end"),
  },
  { description: "An app's balance in one currency at the end of one UTC day" },
);

export const BalanceHistory = Type.Object(
  {
    object: Type.Literal("balance_history", { description: "Always `balance_history`" }),
    from: Timestamp,
    as_of: Timestamp,
    currencies: Type.Array(
      Type.Object(
        {
          currency: Type.String({ description: "Lower-case currency code" }),
          days: Type.Array(BalanceDay, { description: "One per UTC day, oldest first, every day present" }),
        },
        { title: "BalanceHistoryCurrency", description: "One currency's days" },
      ),
      { description: "One per currency the app has money in" },
    ),
  },
  { description: "Each UTC day's closing balances, per currency, as `GET /balances` answers them now" },
);
withExamples(BalanceDay, {
  date: "2026-11-24",
  available: "120.5",
  pending: "25.75",
  owed_to_sellers: "0",
});
withExamples(BalanceHistory, {
  object: "balance_history",
  from: "2026-11-24T00:00:00.000Z",
  as_of: "2026-11-25T09:30:00.000Z",
  currencies: [
    {
      currency: "usd",
      days: [
        exampleOf(BalanceDay),
        { date: "2026-11-25", available: "131.75", pending: "0", owed_to_sellers: "0" },
      ],
    },
  ],
});
nameSchemas({ BalanceDay, BalanceHistory });

export const ReportQuery = Type.Object(
  {
    from: Type.Optional(
      Type.String({
        maxLength: 40,
        description: "Start of the period, inclusive: ISO 8601, UTC (a date is its midnight UTC)",
      }),
    ),
    to: Type.Optional(
      Type.String({ maxLength: 40, description: "End of the period, inclusive: ISO 8601, UTC" }),
    ),
  },
  { additionalProperties: false },
);

export const SellerPayout = Type.Object(
  {
    kyc_id: Type.String({ description: "The seller's KYC record" }),
    currency: Type.String({ description: "Lower-case currency code" }),
    earned: Decimal("The seller's shares of captures in the period"),
    refunded: Decimal("What refunds and bank returns took back of them"),
    transferred: Decimal("Sent to the seller's account"),
    reversed: Decimal("Taken back from the seller's transfers"),
    owed_at_end: Decimal("Still to send at the period's end (negative: the seller owes it back)"),
  },
  { description: "One seller's money over a period, in one currency" },
);

export const SellerPayouts = Type.Object(
  {
    object: Type.Literal("seller_payouts", { description: "Always `seller_payouts`" }),
    from: Nullable(Timestamp),
    to: Nullable(Timestamp),
    sellers: Type.Array(SellerPayout, { description: "One per seller and currency" }),
  },
  { description: "Per seller and currency, what a period of the books says they earned and were paid (UTC)" },
);
withExamples(SellerPayout, {
  kyc_id: "kyc_01m87s3v8k4r2fjc23vtvkbtjm",
  currency: "usd",
  earned: "94",
  refunded: "9.4",
  transferred: "94",
  reversed: "9.4",
  owed_at_end: "0",
});
withExamples(SellerPayouts, {
  object: "seller_payouts",
  from: "2026-11-01T00:00:00.000Z",
  to: "2026-11-30T23:59:59.999Z",
  sellers: [exampleOf(SellerPayout)],
});
nameSchemas({ SellerPayout, SellerPayouts });

export const Reconciliation = Type.Object(
  {
    id: Type.String({ description: "The run's id (`rec_…`)" }),
    status: Type.Union([Type.Literal("running"), Type.Literal("clean"), Type.Literal("mismatched")], {
      description: "`running`, then `clean` (everything agreed) or `mismatched`",
    }),
    trigger: Type.Union([Type.Literal("api"), Type.Literal("schedule")], {
      description: "Asked for through the API, or the daily run",
    }),
    payments_checked: Type.Integer({ description: "How many payments were compared" }),
    mismatches: Type.Array(
      Type.Object(
        {
          kind: Type.String({
            description:
              "`payment_capture`, `payment_refunds`, `provider_capture`, `provider_refunds`, `provider_unreadable`, `chain_unconfirmed`, `chain_unaccounted` or `unbalanced`",
          }),
          payment_id: Nullable(Type.String({ description: "The payment concerned" })),
          ledger: Nullable(Type.String({ description: "What the books say" })),
          other: Nullable(Type.String({ description: "What the other side says" })),
          message: Type.String({ description: "The disagreement in words" }),
        },
        { title: "ReconciliationMismatch", description: "One disagreement" },
      ),
      { description: "What disagreed; empty for a clean run" },
    ),
    created_at: Timestamp,
    finished_at: Nullable(Timestamp),
  },
  { description: "A comparison of the books with the payments, the provider and the chain" },
);
withExamples(Reconciliation, {
  id: "rec_01m87s3v8k4r2fjc23vtvkbtjm",
  status: "clean",
  trigger: "api",
  payments_checked: 42,
  mismatches: [],
  created_at: "2026-11-25T03:15:00.000Z",
  finished_at: "2026-11-25T03:15:02.000Z",
});
export const ReconciliationParams = AppAndIdParams("reconciliation_id", "The run's id");
nameSchemas({ Reconciliation });
