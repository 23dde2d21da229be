CREATE TABLE "prices" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"type" text NOT NULL,
	"kyc_id" text,
	"trigger_id" text,
	"currency" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"name" text NOT NULL,
	"expired" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp with time zone,
	"views" integer DEFAULT 0 NOT NULL,
	"network_type" text NOT NULL,
	"contract" text,
	"chain" text,
	"category" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "prices" ADD CONSTRAINT "prices_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prices_app_created_idx" ON "prices" USING btree ("app_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);