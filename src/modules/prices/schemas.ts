import { Type } from "typebox";
import { CHAINS, NETWORKS } from "../../platform/chains/adapter.ts";
import { oneOf } from "../../platform/http/literals.ts";
import { Body, Nullable, nameSchemas, Timestamp, withExamples } from "../../platform/http/schemas.ts";
import { PRICE_CATEGORIES, PRICE_TYPES } from "./tables.ts";

const PriceType = oneOf(PRICE_TYPES, {
  description: "`static`: a fixed amount; `dynamic`: the payment names its amount, at least this one",
});
const NetworkType = oneOf(NETWORKS);
const Category = oneOf(PRICE_CATEGORIES);
const Chain = oneOf(CHAINS);

export const Price = Type.Object({
  id: Type.String(),
  type: PriceType,
  kyc_id: Nullable(Type.String()),
  trigger_id: Nullable(Type.String()),
  currency: Type.String({ description: "Lower-case currency code (ISO 4217, or a chain currency)" }),
  amount: Type.Number({ description: "Major units (12.5 is twelve fifty)" }),
  amount_decimal: Type.String({
    description:
      "The amount as exact decimal text; differs from `amount` only when the amount has more " +
      "significant digits than a JSON number holds (18 and 24 decimal chain currencies)",
  }),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  name: Type.String(),
  expired: Type.Boolean(),
  expires_at: Nullable(Timestamp),
  views: Type.Integer({ description: "Views of the price's public page" }),
  network_type: NetworkType,
  contract: Nullable(Type.String()),
  chain: Nullable(Chain),
  category: Category,
  created_at: Timestamp,
  updated_at: Timestamp,
});

/** What the public page `GET /p/{price_id}` shows: no links to the app's other records. */
export const PublicPrice = Type.Object({
  id: Type.String(),
  type: PriceType,
  currency: Type.String(),
  amount: Type.Number(),
  amount_decimal: Type.String(),
  name: Type.String(),
  expired: Type.Boolean(),
  views: Type.Integer(),
  network_type: NetworkType,
  contract: Nullable(Type.String()),
  chain: Nullable(Chain),
  category: Category,
  created_at: Timestamp,
});

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
  description: "Any case",
});
const LinkId = Nullable(Type.String({ minLength: 1, maxLength: 64 }));
const Metadata = Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), {
  description: "Free JSON object",
});
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Contract = Nullable(Type.String({ minLength: 1, maxLength: 200 }));
const ExpiresAt = Nullable(
  Type.String({ format: "date-time", description: "The price reads expired from then on" }),
);

export const CreatePriceBody = Body({
  name: Name,
  amount: Amount,
  currency: Currency,
  type: Type.Optional(PriceType),
  category: Type.Optional(Category),
  network_type: Type.Optional(NetworkType),
  chain: Type.Optional(Nullable(Chain)),
  contract: Type.Optional(Contract),
  metadata: Type.Optional(Metadata),
  trigger_id: Type.Optional(LinkId),
  kyc_id: Type.Optional(LinkId),
  expires_at: Type.Optional(ExpiresAt),
});
withExamples(CreatePriceBody, { name: "Concert ticket", amount: "25.00", currency: "usd", type: "static" });

export const UpdatePriceBody = Body({
  name: Type.Optional(Name),
  amount: Type.Optional(Amount),
  currency: Type.Optional(Currency),
  type: Type.Optional(PriceType),
  category: Type.Optional(Category),
  network_type: Type.Optional(NetworkType),
  chain: Type.Optional(Nullable(Chain)),
  contract: Type.Optional(Contract),
  metadata: Type.Optional(Metadata),
  trigger_id: Type.Optional(LinkId),
  kyc_id: Type.Optional(LinkId),
  expires_at: Type.Optional(ExpiresAt),
  expired: Type.Optional(
    Type.Boolean({ description: "true expires the price now; false clears a manual expiry" }),
  ),
});

export const PriceParams = Type.Object({
  app_id: Type.String({ maxLength: 64 }),
  price_id: Type.String({ maxLength: 64 }),
});
export const PublicPriceParams = Type.Object({ price_id: Type.String({ maxLength: 64 }) });

export const PriceItemQuery = Type.Object(
  {
    payment_provider: Type.Optional(
      Type.Union([Type.Literal("card"), Type.Literal("us_bank_account")], { default: "card" }),
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
