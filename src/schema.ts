// Every table of the service, gathered for drizzle-kit (drizzle.config.ts) to write migrations from.
// It lives here, above the modules and the platform, so that `src/platform` never imports a module.

export * from "./modules/api-keys/tables.ts";
export * from "./modules/apps/tables.ts";
export * from "./modules/auctions/tables.ts";
export * from "./modules/kyc/tables.ts";
export * from "./modules/ledger/tables.ts";
export * from "./modules/payments/tables.ts";
export * from "./modules/prices/tables.ts";
export * from "./modules/sandbox-inbox/tables.ts";
export * from "./modules/solana/tables.ts";
export * from "./modules/triggers/tables.ts";
export * from "./modules/users/tables.ts";
export * from "./modules/wallets/tables.ts";
export * from "./modules/webhooks/tables.ts";
export * from "./platform/audit/table.ts";
export * from "./platform/crypto/master-key-table.ts";
export * from "./platform/http/idempotency-table.ts";
export * from "./platform/http/rate-limit-table.ts";
export * from "./platform/jobs/outbox-table.ts";
export * from "./platform/providers/kyc/sandbox-tables.ts";
export * from "./platform/providers/payments/sandbox/tables.ts";
