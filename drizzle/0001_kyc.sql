CREATE TABLE "kyc_events" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"kyc_id" text,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kyc_sandbox_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"state" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kycs" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"identifier" text NOT NULL,
	"type" text NOT NULL,
	"account_type" text NOT NULL,
	"email" text,
	"active" boolean DEFAULT true NOT NULL,
	"edit_token_hash" text NOT NULL,
	"edit_token_sealed" text NOT NULL,
	"provider" text NOT NULL,
	"provider_account_id" text,
	"account_exists" boolean DEFAULT false NOT NULL,
	"country" text,
	"business_status" text DEFAULT 'pending' NOT NULL,
	"details_submitted" boolean DEFAULT false NOT NULL,
	"charges_enabled" boolean DEFAULT false NOT NULL,
	"payouts_enabled" boolean DEFAULT false NOT NULL,
	"needs_documents" boolean DEFAULT true NOT NULL,
	"payout_schedule" jsonb,
	"required_documents" jsonb,
	"requirements" jsonb,
	"capabilities" jsonb,
	"bank_accounts" jsonb,
	"cards" jsonb,
	"pending_actions" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kycs_edit_token_hash_unique" UNIQUE("edit_token_hash"),
	CONSTRAINT "kycs_provider_account_id_unique" UNIQUE("provider_account_id")
);
--> statement-breakpoint
ALTER TABLE "kycs" ADD CONSTRAINT "kycs_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "kyc_events_app_idx" ON "kyc_events" USING btree ("app_id","created_at");--> statement-breakpoint
CREATE INDEX "kyc_events_kyc_idx" ON "kyc_events" USING btree ("kyc_id");--> statement-breakpoint
CREATE UNIQUE INDEX "kycs_app_identifier_idx" ON "kycs" USING btree ("app_id","identifier");--> statement-breakpoint
CREATE INDEX "kycs_app_list_idx" ON "kycs" USING btree ("app_id","created_at","id");