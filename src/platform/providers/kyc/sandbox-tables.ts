import { jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The KYC sandbox provider's own state, as a real provider would keep it on its side: the sandbox
 * owns its tables, as the payments sandbox does (`../payments/sandbox/tables.ts`).
 */
export const kycSandboxAccounts = pgTable("kyc_sandbox_accounts", {
  id: text("id").primaryKey(),
  state: jsonb("state").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
