import { boolean, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { appPrimaryKey } from "../apps/references.ts";
import { walletPrimaryKey } from "../wallets/references.ts";

export const triggers = pgTable(
  "triggers",
  {
    id: text("id").primaryKey(),
    appId: text("app_id").notNull().references(appPrimaryKey, { onDelete: "cascade" }),
    // No cascade: a wallet in use cannot be deleted (409), and this key backs that check up.
    walletId: text("wallet_id").notNull().references(walletPrimaryKey),
    name: text("name").notNull(),
    customAddressEnabled: boolean("custom_address_enabled").notNull().default(false),
    customAddress: text("custom_address"),
    // The call of the wallet's chain, as the interface's `call_data.<chain>` object.
    callData: jsonb("call_data").notNull(),
    paramsData: jsonb("params_data").notNull(),
    paramsDataInput: jsonb("params_data_input"),
    paramsDataExample: text("params_data_example"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("triggers_app_list_idx").on(t.appId, t.createdAt, t.id),
    index("triggers_wallet_idx").on(t.walletId),
  ],
);
