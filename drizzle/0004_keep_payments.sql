CREATE TABLE "deleted_apps" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_by" text NOT NULL,
	"deleted_by" text NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_app_id_apps_id_fk";
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "payment_token_sealed" text;