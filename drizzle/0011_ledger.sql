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
CREATE UNIQUE INDEX "ledger_entries_transaction_line_idx" ON "ledger_entries" USING btree ("transaction_id","line");--> statement-breakpoint
CREATE INDEX "ledger_entries_app_created_idx" ON "ledger_entries" USING btree ("app_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ledger_entries_payment_idx" ON "ledger_entries" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "reconciliations_app_created_idx" ON "reconciliations" USING btree ("app_id","created_at","id");