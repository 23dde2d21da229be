import { Type } from "typebox";
import { oneOf } from "../../platform/http/literals.ts";
import { AppAndIdParams, IdParam, IdParams } from "../../platform/http/params.ts";
import { exampleOf, nameSchemas, withExamples } from "../../platform/http/schema-docs.ts";
import { Body, Nullable, Timestamp } from "../../platform/http/schemas.ts";
import { App } from "../apps/schemas.ts";
import { Payment } from "../payments/schemas.ts";
import { Price } from "../prices/schemas.ts";
import { BID_STATUSES } from "./tables.ts";

const NetworkType = Type.Union([Type.Literal("mainnet"), Type.Literal("testnet")], {
  description:
    "The network the winner's contract call runs on (default: testnet on a sandbox server, else mainnet)",
});
const amount = (description: string) =>
  Type.Union([Type.Number({ minimum: 0 }), Type.String({ maxLength: 64, pattern: "^[0-9]+(\\.[0-9]+)?$" })], {
    description: `${description}: major units, a JSON number or decimal text`,
  });
const Amount = amount("The starting amount");
const currency = (description: string) =>
  Type.String({ minLength: 2, maxLength: 12, pattern: "^[A-Za-z]+$", description });
const Currency = currency("Currency code, any case (stored lower-case), e.g. `usd`");
const Name = Type.String({ minLength: 1, maxLength: 200, description: "The auction's name" });
const Email = Type.String({ format: "email", maxLength: 254, description: "The shopper's email address" });

const CurrencyConversion = Nullable(
  Type.Object(
    {
      from_currency: Type.String({ description: "The currency the shopper bid in" }),
      from_amount: Type.Number({ description: "The amount the shopper bid, in from_currency" }),
      rate: Type.Number({ description: "Auction currency per unit of `from_currency`, as used" }),
    },
    { description: "How a bid made in another currency was converted; null when it was not" },
  ),
);

export const Shopper = Type.Object(
  {
    id: Type.String({ description: "The shopper's id (`shp_…`)" }),
    phone_or_email: Type.String({ description: "The shopper's email address" }),
    auth_method: Type.Literal("email", { description: "How the shopper signs in: a code sent by email" }),
    created_at: Timestamp,
    disabled: Type.Boolean({ description: "A disabled shopper's new bids are refused (403)" }),
  },
  { description: "A bidder of an app, signed in by a one-time code sent by email" },
);

const BidStatus = oneOf(BID_STATUSES, {
  description:
    "`pending` until the payment's hold lands; `placed` while it is the standing bid; `failed`: it won but its payment failed, and the sale passed to the runner-up (docs/auctions.md)",
});

export const Bid = Type.Object(
  {
    id: Type.String({ description: "The bid's id (`bid_…`)" }),
    auction: Type.String({ description: "The auction's id" }),
    currency: Type.String({ description: "The auction's currency, in which amount is" }),
    currency_conversion: CurrencyConversion,
    amount: Type.Number({ description: "The bid, in major units of the auction's currency" }),
    status: BidStatus,
    reason: Nullable(
      Type.String({ description: "Why the bid is refused, failed or won after another's failure" }),
    ),
    shopper: Shopper,
    payment: Payment,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: "A shopper's bid, backed by a card payment on hold" },
);

export const Auction = Type.Object(
  {
    id: Type.String({ description: "The auction's id (`auc_…`)" }),
    app: Type.Unknown({ description: "The App" }),
    currency: Type.String({ description: "Lower-case currency code of the amounts" }),
    currency_conversion: CurrencyConversion,
    amount: Type.Number({ description: "The starting amount" }),
    current_amount: Nullable(Type.Number({ description: "The standing (highest placed) bid" })),
    min_increment: Type.Number({ description: "How much a bid must beat the standing bid by" }),
    name: Type.String({ description: "The auction's name" }),
    expired: Type.Boolean({ description: "Whether the auction has ended" }),
    views: Type.Integer({ description: "Views of the auction's public page" }),
    network_type: NetworkType,
    ends_at: Timestamp,
    trigger_id: Nullable(Type.String({ description: "The trigger the winner's payment runs" })),
    winner_bid_id: Nullable(Type.String({ description: "The winning bid, once the auction is closed" })),
    bids: Type.Array(Bid, { description: "The auction's bids" }),
    on_bid_payment_intent: Price,
    on_end_payment_intent: Price,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: "An auction: bids are held on cards and the winner is charged at the end" },
);

export const CreateAuctionBody = Body({
  name: Name,
  amount: Amount,
  currency: Currency,
  ends_at: Type.String({ format: "date-time", description: "When bidding closes" }),
  min_increment: Type.Optional(
    amount("How much a bid must beat the standing bid by (default one minor unit)"),
  ),
  trigger_id: Type.Optional(
    Nullable(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: "A trigger of the app, run by the winner's payment",
      }),
    ),
  ),
  network_type: Type.Optional(NetworkType),
});

export const UpdateAuctionBody = Body({
  amount: Type.Optional(Amount),
  currency: Type.Optional(Currency),
  name: Type.Optional(Name),
});

const CardMethod = Type.Object(
  {
    type: Type.Literal("card", { description: "A card (sandbox test cards)" }),
    number: Type.String({ minLength: 12, maxLength: 23, description: "The card number" }),
    exp_month: Type.Integer({ minimum: 1, maximum: 12, description: "Expiry month, 1 to 12" }),
    exp_year: Type.Integer({ minimum: 2000, maximum: 2100, description: "Expiry year, four digits" }),
    cvc: Type.String({ minLength: 3, maxLength: 4, description: "The card's security code" }),
  },
  { additionalProperties: false, description: "A card, sandbox only" },
);
const TokenMethod = Type.Object(
  {
    type: Type.Literal("token", { description: "A payment method made by the provider's browser script" }),
    id: Type.String({ minLength: 1, maxLength: 255, description: "The provider's payment method id" }),
  },
  { additionalProperties: false, description: "A payment method id (Stripe: from Stripe.js)" },
);

export const CreateBidBody = Body({
  amount: amount("The bid"),
  currency: Type.Optional(
    currency("The bid's currency, if not the auction's: converted at the current rate"),
  ),
  payment_method: Type.Union([CardMethod, TokenMethod], { description: "The card the bid is held on" }),
  trigger_data_input: Type.Optional(
    Body(
      {
        params_data_input: Type.Record(Type.String(), Type.Unknown(), {
          description: "The trigger's parameters, keyed by name",
        }),
      },
      "The trigger's parameters for this bid, checked now against the auction's trigger; the winning bid's call runs with them",
    ),
  ),
});

export const CodeBody = Body({ email: Email });
export const SessionBody = Body({
  email: Email,
  code: Type.String({ pattern: "^[0-9]{6}$", description: "The 6-digit code mailed to the shopper" }),
});
export const ShopperSession = Type.Object(
  {
    token: Type.String({ description: "Send as `Authorization: Bearer` to bid; shown once" }),
    expires_at: Timestamp,
    shopper: Shopper,
  },
  { description: "A shopper's session: the token to bid with" },
);
export const UpdateShopperBody = Body({
  disabled: Type.Boolean({
    description: "true disables the shopper (new bids 403); false enables them again",
  }),
});

export const AuctionParams = AppAndIdParams("auction_id", "The auction's id");
export const AuctionIdParams = IdParams("id", "The auction's id");
export const PublicAuctionParams = IdParams("auction_id", "The auction's id");
export const ShopperParams = AppAndIdParams("shopper_id", "The shopper's id");
export const BidParams = Type.Object({
  app_id: IdParam("The app's id"),
  auction_id: IdParam("The auction's id"),
  bid_id: IdParam("The bid's id"),
});

const NOW = "2026-11-24T21:30:00.000Z";
const AUCTION_ID = "auc_01m87s3v8k4r2fjc23vtvkbtjp";
withExamples(Shopper, {
  id: "shp_01m87s3v8k4r2fjc23vtvkbtjr",
  phone_or_email: "grace@example.com",
  auth_method: "email",
  created_at: NOW,
  disabled: false,
});
const BID_PRICE = {
  ...(exampleOf(Price) as object),
  id: "price_01m87s3v8k4r2fjc23vtvkbtjj",
  type: "dynamic",
  name: "Signed guitar: bid",
  amount: 100,
  amount_decimal: "100.00",
  category: "bid",
  kyc_id: null,
  metadata: { auction_id: AUCTION_ID },
};
const BID_PAYMENT = exampleOf(Payment) as Record<string, unknown>;
withExamples(Bid, {
  id: "bid_01m87s3v8k4r2fjc23vtvkbtjq",
  auction: AUCTION_ID,
  currency: "usd",
  currency_conversion: null,
  amount: 120,
  status: "placed",
  reason: null,
  shopper: exampleOf(Shopper),
  payment: {
    ...BID_PAYMENT,
    id: "pay_01m87s3v8k4r2fjc23vtvkbtjn",
    status: "hold",
    final_amount: 123.58,
    transaction_id: null,
    transaction_url: null,
    transaction_response: { error: null, near: null, evm: null, wax: null, solana: null },
    confirmation_status: {
      ...(BID_PAYMENT.confirmation_status as object),
      progress: 0,
      confirmations: 0,
      confirmed: false,
    },
    price: BID_PRICE,
    price_item: {
      ...(BID_PAYMENT.price_item as object),
      amount: 120,
      amount_total: 123.58,
      amount_transaction_fee: 3.58,
      amount_platform: 1.2,
      amount_seller: 112.8,
      amount_app: 6,
      processing_fee_amount: 3.58,
    },
  },
  created_at: NOW,
  updated_at: NOW,
});
withExamples(Auction, {
  id: AUCTION_ID,
  app: exampleOf(App),
  currency: "usd",
  currency_conversion: null,
  amount: 100,
  current_amount: 120,
  min_increment: 5,
  name: "Signed guitar",
  expired: false,
  views: 42,
  network_type: "testnet",
  ends_at: "2026-11-30T20:00:00.000Z",
  trigger_id: "trg_01m87s3v8k4r2fjc23vtvkbtjg",
  winner_bid_id: null,
  bids: [exampleOf(Bid)],
  on_bid_payment_intent: BID_PRICE,
  on_end_payment_intent: {
    ...BID_PRICE,
    id: "price_01m87s3v8k4r2fjc23vtvkbtjk",
    type: "static",
    name: "Signed guitar",
    category: "auction",
  },
  created_at: NOW,
  updated_at: NOW,
});
withExamples(CreateAuctionBody, {
  name: "Signed guitar",
  amount: "100.00",
  currency: "usd",
  ends_at: "2026-11-30T20:00:00.000Z",
  min_increment: "5.00",
  trigger_id: "trg_01m87s3v8k4r2fjc23vtvkbtjg",
});
withExamples(UpdateAuctionBody, { name: "Signed guitar (1962)" });
withExamples(CodeBody, { email: "grace@example.com" });
withExamples(SessionBody, { email: "grace@example.com", code: "402913" });
withExamples(ShopperSession, {
  token: "shp_Z3JhY2VAZXhhbXBsZS5jb20tc2Vzc2lvbi10b2tlbi0x",
  expires_at: "2026-11-25T09:30:00.000Z",
  shopper: exampleOf(Shopper),
});
withExamples(UpdateShopperBody, { disabled: true });
withExamples(CreateBidBody, {
  amount: "120.00",
  payment_method: { type: "card", number: "4242424242424242", exp_month: 12, exp_year: 2030, cvc: "123" },
  trigger_data_input: { params_data_input: { receiver: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" } },
});

// Named in the OpenAPI document (components.schemas), referenced wherever they appear.
nameSchemas({ Shopper, Bid, Auction, ShopperSession });
