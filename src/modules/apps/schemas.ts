import { Type } from "typebox";
import { exampleOf, nameSchemas, withExamples } from "../../platform/http/schema-docs.ts";
import { Body, Nullable, Timestamp } from "../../platform/http/schemas.ts";
import { UserSummary } from "../users/schemas.ts";

export const AppPermissions = Type.Object(
  {
    can_view: Type.Boolean({ description: "The caller may read the app" }),
    can_edit: Type.Boolean({ description: "The caller may change the app" }),
    can_delete: Type.Boolean({ description: "The caller may delete the app" }),
    can_edit_members: Type.Boolean({ description: "The caller may invite and remove members" }),
  },
  { description: "What the caller's role lets them do with the app" },
);

export const App = Type.Object(
  {
    id: Type.String({ description: "The app's id" }),
    name: Type.String({ description: "The app's name" }),
    type: Type.Union([Type.Literal("individual"), Type.Literal("marketplace")], {
      description:
        "`individual` (the app sells its own goods) or `marketplace` (sellers with KYC records; the app takes app_fee)",
    }),
    kyc_return_url: Nullable(Type.String({ description: "Where the KYC widget sends the seller back" })),
    use_explorer: Type.Boolean({ description: "Payments answer a transaction_url in the chain's explorer" }),
    require_two_factor: Type.Boolean({
      description: "Members must have two-factor log-in on to act in the app (docs/accounts.md)",
    }),
    permissions: AppPermissions,
    app_fee: Type.Number({ description: "Percent of each sale a marketplace app keeps (2.5 = 2.5%)" }),
    user: UserSummary,
    is_member: Type.Boolean({ description: "The caller has a role in the app" }),
    display_name: Nullable(
      Type.String({
        description: "The name shoppers see on the hosted pages instead of `name`; null for `name`",
      }),
    ),
    accent_color: Nullable(
      Type.String({
        description: "The hosted pages' button and link colour, `#rrggbb`; null for the default",
      }),
    ),
    icon_url: Nullable(
      Type.String({
        description:
          "The uploaded icon (`PUT /apps/{app_id}/icon`), shown on the hosted pages; its `v` changes with each upload. Null for none",
      }),
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: "An app: the unit of tenancy that owns wallets, triggers, prices, payments and members" },
);

const AppFee = Type.Number({
  minimum: 0,
  exclusiveMaximum: 100,
  description: "Percent, 0 <= fee < 100, at most two decimals; taken only by marketplace apps",
});
const Name = Type.String({ minLength: 1, maxLength: 200, description: "The app's name" });
const AppType = Type.Union([Type.Literal("individual"), Type.Literal("marketplace")], {
  description: "`individual` (default) or `marketplace`",
});
const ReturnUrl = Nullable(
  Type.String({
    format: "uri",
    maxLength: 2048,
    pattern: "^https?://",
    description: "Where the KYC widget sends a seller back when done (http or https); null for none",
  }),
);
const DisplayName = Nullable(
  Type.String({
    minLength: 1,
    maxLength: 80,
    pattern: "\\S",
    description:
      "The name shoppers see on the hosted pages (checkout, auction, KYC, invitation); null to show `name`",
  }),
);
const AccentColor = Nullable(
  Type.String({
    pattern: "^#[0-9A-Fa-f]{6}$",
    description:
      "The hosted pages' button and link colour, `#rrggbb` (kept in lower case); the text on it is white or dark, whichever reads; null for the default",
  }),
);
const UseExplorer = Type.Boolean({
  description: "Payments answer a transaction_url in the chain's explorer (default false)",
});

export const CreateAppBody = Body({
  name: Name,
  app_fee: Type.Optional(AppFee),
  use_explorer: Type.Optional(UseExplorer),
  type: Type.Optional(AppType),
  kyc_return_url: Type.Optional(ReturnUrl),
});
withExamples(CreateAppBody, { name: "Ada's shop", type: "individual" });
withExamples(App, {
  id: "app_01m87s3v8h13edjthr38t9cfv8",
  name: "Ada's shop",
  type: "marketplace",
  kyc_return_url: "https://shop.example.com/sellers/done",
  use_explorer: true,
  require_two_factor: false,
  permissions: { can_view: true, can_edit: true, can_delete: true, can_edit_members: true },
  app_fee: 5,
  user: exampleOf(UserSummary),
  is_member: true,
  display_name: "Ada's Pottery",
  accent_color: "#0b7a75",
  icon_url: "https://payments.example.com/apps/app_01m87s3v8h13edjthr38t9cfv8/icon?v=1",
  created_at: "2026-11-24T21:30:00.000Z",
  updated_at: "2026-11-24T21:30:00.000Z",
});

export const UpdateAppBody = Body({
  name: Type.Optional(Name),
  app_fee: Type.Optional(AppFee),
  use_explorer: Type.Optional(UseExplorer),
  type: Type.Optional(AppType),
  kyc_return_url: Type.Optional(ReturnUrl),
  display_name: Type.Optional(DisplayName),
  accent_color: Type.Optional(AccentColor),
  require_two_factor: Type.Optional(
    Type.Boolean({
      description:
        "Owners only: members without two-factor log-in get 403 in this app until they turn it on; the caller must have it on",
    }),
  ),
});
withExamples(UpdateAppBody, {
  type: "marketplace",
  app_fee: 5,
  kyc_return_url: "https://shop.example.com/sellers/done",
  display_name: "Ada's Pottery",
  accent_color: "#0b7a75",
});

// Named in the OpenAPI document (components.schemas), referenced wherever they appear.
nameSchemas({ App, AppPermissions });
