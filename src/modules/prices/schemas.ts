import { Type } from "typebox";
import { CHAINS, NETWORKS } from "../../platform/chains/adapter.ts";
import { oneOf } from "../../platform/http/literals.ts";
import { AppAndIdParams, IdParams } from "../../platform/http/params.ts";
import { nameSchemas, withExamples } from "../../platform/http/schema-docs.ts";
import { Body, Nullable, Timestamp } from "../../platform/http/schemas.ts";
import { PRICE_CATEGORIES, PRICE_TYPES } from "./tables.ts";

const PriceType = oneOf(PRICE_TYPES, {
  description: "`static`: a fixed amount; `dynamic`: the payment names its amount, at least this one",
});
const NetworkType = oneOf(NETWORKS, {
  description:
    "The network a payment's contract call runs on (default: testnet on a sandbox server, else mainnet)",
});
const Category = oneOf(PRICE_CATEGORIES, {
  description: "`payment` (default); `bid` and `auction` are an auction's own two prices",
});
const Chain = oneOf(CHAINS, {
  description: "The chain of what the price sells, as given (informational; null by default)",
});
const CONTRACT = "The contract of what the price sells, as given (informational; null by default)";
const KYC_ID = "The seller's KYC record (marketplace apps): the seller paid by this price's payments";
const TRIGGER_ID = "The trigger a payment of this price runs once paid";

/** What the price sells and where its payment's call runs: the price and its public page alike. */
const saleFields = {
  network_type: NetworkType,
  contract: Nullable(Type.String({ description: CONTRACT })),
  chain: Nullable(Chain),
  category: Category,
};

export const Price = Type.Object(
  {
    id: Type.String({ description: "The price's id (`price_…`)" }),
    type: PriceType,
    kyc_id: Nullable(Type.String({ description: KYC_ID })),
    trigger_id: Nullable(Type.String({ description: TRIGGER_ID })),
    currency: Type.String({ description: "Lower-case currency code (ISO 4217, or a chain currency)" }),
    amount: Type.Number({ description: "Major units (12.5 is twelve fifty)" }),
    amount_decimal: Type.String({
      description:
        "The amount as exact decimal text; differs from `amount` only when the amount has more " +
        "significant digits than a JSON number holds (18 and 24 decimal chain currencies)",
    }),
    metadata: Type.Record(Type.String(), Type.Unknown(), { description: "Free JSON object, kept as given" }),
    name: Type.String({ description: "The price's name, shown to the shopper" }),
    expired: Type.Boolean({
      description: "Whether the price can no longer be paid (set by PATCH or reached expires_at)",
    }),
    expires_at: Nullable(
      Type.String({ format: "date-time", description: "When the price expires by itself; null for never" }),
    ),
    views: Type.Integer({ description: "Views of the price's public page" }),
    ...saleFields,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: "What a shopper pays, in a currency, and what the payment then runs" },
);

/** What the public page `GET /p/{price_id}` shows: no links to the app's other records. */
export const PublicPrice = Type.Object(
  {
    id: Type.String({ description: "The price's id (`price_…`)" }),
    type: PriceType,
    currency: Type.String({ description: "Lower-case currency code (ISO 4217, or a chain currency)" }),
    amount: Type.Number({ description: "Major units (12.5 is twelve fifty)" }),
    amount_decimal: Type.String({ description: "The amount as exact decimal text" }),
    name: Type.String({ description: "The price's name" }),
    expired: Type.Boolean({ description: "Whether the price can no longer be paid" }),
    views: Type.Integer({ description: "Views of the price's public page, this one included" }),
    ...saleFields,
    created_at: Timestamp,
  },
  { description: "A price as its public page shows it: no metadata, trigger or KYC ids" },
);

const Amount = Type.Union(
  [Type.Number({ minimum: 0 }), Type.String({ maxLength: 64, pattern: "^[0-9]+(\\.[0-9]+)?$" })],
  {
    description:
      "Major units, at most the currency's decimals. A JSON number holds about 15 significant " +
      'digits: send amounts that need more (e.g. 1234567.123456789012345678 eth) as a decimal string, "1234567.123456789012345678".',
  },
);
const Currency = Type.String({
  minLength: 2,
  maxLength: 12,
  pattern: "^[A-Za-z]+$",
  description: "Currency code, any case (stored lower-case), e.g. `usd` or `eth`",
});
const LinkId = (description: string) => Nullable(Type.String({ minLength: 1, maxLength: 64, description }));
const Metadata = Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), {
  description: "Free JSON object",
});
const Name = Type.String({
  minLength: 1,
  maxLength: 200,
  description: "The price's name, shown to the shopper",
});
const Contract = Nullable(Type.String({ minLength: 1, maxLength: 200, description: CONTRACT }));
const ExpiresAt = Nullable(
  Type.String({ format: "date-time", description: "The price reads expired from then on" }),
);

/** What a price may be given besides its name, amount and currency, on creation as on a change. */
const optionalFields = {
  type: Type.Optional(PriceType),
  category: Type.Optional(Category),
  network_type: Type.Optional(NetworkType),
  chain: Type.Optional(Nullable(Chain)),
  contract: Type.Optional(Contract),
  metadata: Type.Optional(Metadata),
  trigger_id: Type.Optional(LinkId(TRIGGER_ID)),
  kyc_id: Type.Optional(LinkId(KYC_ID)),
  expires_at: Type.Optional(ExpiresAt),
};

export const CreatePriceBody = Body({
  name: Name,
  amount: Amount,
  currency: Currency,
  ...optionalFields,
});
withExamples(CreatePriceBody, {
  name: "Concert ticket",
  amount: "25.00",
  currency: "usd",
  type: "static",
  trigger_id: "trg_01m87s3v8k4r2fjc23vtvkbtjg",
  kyc_id: "kyc_01m87s3v8k4r2fjc23vtvkbtjs",
});
const PUBLIC_FIELDS = {
  id: "price_01m87s3v8k4r2fjc23vtvkbtjh",
  type: "static",
  currency: "usd",
  amount: 25,
  amount_decimal: "25.00",
  name: "Concert ticket",
  expired: false,
  views: 12,
  network_type: "testnet",
  contract: null,
  chain: null,
  category: "payment",
  created_at: "2026-11-24T21:30:00.000Z",
};
withExamples(Price, {
  ...PUBLIC_FIELDS,
  kyc_id: "kyc_01m87s3v8k4r2fjc23vtvkbtjs",
  trigger_id: "trg_01m87s3v8k4r2fjc23vtvkbtjg",
  metadata: { event: "Autumn concert", seat_map: "hall-a" },
  expires_at: null,
  updated_at: "2026-11-24T21:30:00.000Z",
});
withExamples(PublicPrice, PUBLIC_FIELDS);

export const UpdatePriceBody = Body({
  name: Type.Optional(Name),
  amount: Type.Optional(Amount),
  currency: Type.Optional(Currency),
  ...optionalFields,
  expired: Type.Optional(
    Type.Boolean({ description: "true expires the price now; false clears a manual expiry" }),
  ),
});
withExamples(UpdatePriceBody, { amount: "30.00", expires_at: "2026-12-31T23:00:00.000Z" });

export const PriceParams = AppAndIdParams("price_id", "The price's id");
export const PublicPriceParams = IdParams("price_id", "The price's id");

export const PriceItemQuery = Type.Object(
  {
    payment_provider: Type.Optional(
      Type.Union([Type.Literal("card"), Type.Literal("us_bank_account")], {
        default: "card",
        description: "How the shopper would pay: the provider's fees differ (default card)",
      }),
    ),
    amount: Type.Optional(
      Type.String({
        maxLength: 64,
        pattern: "^[0-9]+(\\.[0-9]+)?$",
        description: "For a dynamic price: the amount the shopper would pay, at least the price's",
      }),
    ),
  },
  { additionalProperties: false },
);

// Named in the OpenAPI document (components.schemas), referenced wherever they appear.
nameSchemas({ Price, PublicPrice });
