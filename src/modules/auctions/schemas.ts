import { Type } from "typebox";
import { oneOf } from "../../platform/http/literals.ts";
import { Body, Nullable, nameSchemas, Timestamp } from "../../platform/http/schemas.ts";
import { Payment } from "../payments/schemas.ts";
import { Price } from "../prices/schemas.ts";
import { BID_STATUSES } from "./tables.ts";

const NetworkType = Type.Union([Type.Literal("mainnet"), Type.Literal("testnet")]);
const Amount = Type.Union([
  Type.Number({ minimum: 0 }),
  Type.String({ maxLength: 64, pattern: "^[0-9]+(\\.[0-9]+)?$" }),
]);
const Currency = Type.String({ minLength: 2, maxLength: 12, pattern: "^[A-Za-z]+$" });
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Email = Type.String({ format: "email", maxLength: 254 });

const CurrencyConversion = Nullable(
  Type.Object({
    from_currency: Type.String(),
    from_amount: Type.Number(),
    rate: Type.Number({ description: "Auction currency per unit of `from_currency`, as used" }),
  }),
);

export const Shopper = Type.Object({
  id: Type.String(),
  phone_or_email: Type.String(),
  auth_method: Type.Literal("email"),
  created_at: Timestamp,
  disabled: Type.Boolean(),
});

const BidStatus = oneOf(BID_STATUSES, {
  description:
    "`pending` until the payment's hold lands; `placed` while it is the standing bid; `failed`: it won but its payment failed, and the sale passed to the runner-up (docs/auctions.md)",
});

export const Bid = Type.Object({
  id: Type.String(),
  auction: Type.String({ description: "The auction's id" }),
  currency: Type.String(),
  currency_conversion: CurrencyConversion,
  amount: Type.Number(),
  status: BidStatus,
  reason: Nullable(Type.String()),
  shopper: Shopper,
  payment: Payment,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const Auction = Type.Object({
  id: Type.String(),
  app: Type.Unknown({ description: "The App" }),
  currency: Type.String(),
  currency_conversion: CurrencyConversion,
  amount: Type.Number({ description: "The starting amount" }),
  current_amount: Nullable(Type.Number({ description: "The standing (highest placed) bid" })),
  min_increment: Type.Number(),
  name: Type.String(),
  expired: Type.Boolean(),
  views: Type.Integer(),
  network_type: NetworkType,
  ends_at: Timestamp,
  trigger_id: Nullable(Type.String()),
  winner_bid_id: Nullable(Type.String()),
  bids: Type.Array(Bid),
  on_bid_payment_intent: Price,
  on_end_payment_intent: Price,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const CreateAuctionBody = Body({
  name: Name,
  amount: Amount,
  currency: Currency,
  ends_at: Type.String({ format: "date-time" }),
  min_increment: Type.Optional(Amount),
  trigger_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64 }))),
  network_type: Type.Optional(NetworkType),
});

export const UpdateAuctionBody = Body({
  amount: Type.Optional(Amount),
  currency: Type.Optional(Currency),
  name: Type.Optional(Name),
});

const CardMethod = Type.Object(
  {
    type: Type.Literal("card"),
    number: Type.String({ minLength: 12, maxLength: 23 }),
    exp_month: Type.Integer({ minimum: 1, maximum: 12 }),
    exp_year: Type.Integer({ minimum: 2000, maximum: 2100 }),
    cvc: Type.String({ minLength: 3, maxLength: 4 }),
  },
  { additionalProperties: false },
);
const TokenMethod = Type.Object(
  { type: Type.Literal("token"), id: Type.String({ minLength: 1, maxLength: 255 }) },
  { additionalProperties: false },
);

export const CreateBidBody = Body({
  amount: Amount,
  currency: Type.Optional(Currency),
  payment_method: Type.Union([CardMethod, TokenMethod]),
  trigger_data_input: Type.Optional(
    Body(
      { params_data_input: Type.Record(Type.String(), Type.Unknown()) },
      "The trigger's parameters for this bid, checked now against the auction's trigger; the winning bid's call runs with them",
    ),
  ),
});

export const CodeBody = Body({ email: Email });
export const SessionBody = Body({ email: Email, code: Type.String({ pattern: "^[0-9]{6}$" }) });
export const ShopperSession = Type.Object({
  token: Type.String({ description: "Send as `Authorization: Bearer` to bid; shown once" }),
  expires_at: Timestamp,
  shopper: Shopper,
});
export const UpdateShopperBody = Body({ disabled: Type.Boolean() });

const IdParam = Type.String({ maxLength: 64 });
export const AuctionParams = Type.Object({ app_id: IdParam, auction_id: IdParam });
export const AuctionIdParams = Type.Object({ id: IdParam });
export const PublicAuctionParams = Type.Object({ auction_id: IdParam });
export const ShopperParams = Type.Object({ app_id: IdParam, shopper_id: IdParam });
export const BidParams = Type.Object({ app_id: IdParam, auction_id: IdParam, bid_id: IdParam });

// Named in the OpenAPI document (components.schemas), referenced wherever they appear.
nameSchemas({ Shopper, Bid, Auction, ShopperSession });
