CREATE TABLE "sandbox_transfer_reversals" (
	"id" text PRIMARY KEY NOT NULL,
	"transfer_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "transfer_round" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_transfer_reversals" ADD CONSTRAINT "sandbox_transfer_reversals_transfer_id_sandbox_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."sandbox_transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_transfer_reversals_transfer_idx" ON "sandbox_transfer_reversals" USING btree ("transfer_id");--> statement-breakpoint
CREATE INDEX "payments_failed_transfers_idx" ON "payments" USING btree ("kyc_id") WHERE "payments"."status" = 'failed-transfers';--> statement-breakpoint
CREATE INDEX "sandbox_transfers_group_idx" ON "sandbox_transfers" USING btree ("transfer_group");