CREATE TABLE "ledger_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"transaction_id" text NOT NULL,
	"line" smallint NOT NULL,
	"app_id" text NOT NULL,
	"account" text NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"type" text NOT NULL,
	"payment_id" text,
	"reference" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reconciliations" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"status" text NOT NULL,
	"trigger" text NOT NULL,
	"payments_checked" integer DEFAULT 0 NOT NULL,
	"mismatches" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "wallet_balances" (
	"wallet_id" text PRIMARY KEY NOT NULL,
	"balance" numeric(78, 0) NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	"low_since" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "master_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"sealing" boolean DEFAULT false NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deleted_apps" ADD COLUMN "owners" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "invite_token_sealed" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "signed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "command_key" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "intent_round" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "wallets" ADD COLUMN "balance_low_threshold" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "wallet_balances" ADD CONSTRAINT "wallet_balances_wallet_id_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."wallets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_transaction_line_idx" ON "ledger_entries" USING btree ("transaction_id","line");--> statement-breakpoint
CREATE INDEX "ledger_entries_app_created_idx" ON "ledger_entries" USING btree ("app_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ledger_entries_payment_idx" ON "ledger_entries" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "reconciliations_app_created_idx" ON "reconciliations" USING btree ("app_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "master_keys_one_sealing" ON "master_keys" USING btree ("sealing") WHERE "master_keys"."sealing";--> statement-breakpoint
CREATE INDEX "payments_pending_created_idx" ON "payments" USING btree ("created_at") WHERE "payments"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "payments_kyc_open_idx" ON "payments" USING btree ("kyc_id") WHERE "payments"."status" in ('pending', 'hold', 'failed-captured', 'failed-transfers');