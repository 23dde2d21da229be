// The one Drizzle schema: every module's tables, gathered for drizzle-kit and the query builder.

export * from "../../modules/api-keys/tables.ts";
export * from "../../modules/apps/tables.ts";
export * from "../../modules/auctions/tables.ts";
export * from "../../modules/kyc/tables.ts";
export * from "../../modules/members/tables.ts";
export * from "../../modules/payments/tables.ts";
export * from "../../modules/prices/tables.ts";
export * from "../../modules/sandbox-inbox/tables.ts";
export * from "../../modules/solana/tables.ts";
export * from "../../modules/triggers/tables.ts";
export * from "../../modules/users/tables.ts";
export * from "../../modules/wallets/tables.ts";
export * from "../../modules/webhooks/tables.ts";
export * from "../http/idempotency-table.ts";
export * from "../http/rate-limit-table.ts";
export * from "../jobs/outbox-table.ts";
export * from "../providers/payments/sandbox/tables.ts";
