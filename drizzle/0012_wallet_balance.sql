CREATE TABLE "wallet_balances" (
	"wallet_id" text PRIMARY KEY NOT NULL,
	"balance" numeric(78, 0) NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	"low_since" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "wallets" ADD COLUMN "balance_low_threshold" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "wallet_balances" ADD CONSTRAINT "wallet_balances_wallet_id_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."wallets"("id") ON DELETE cascade ON UPDATE no action;