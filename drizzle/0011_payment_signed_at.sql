ALTER TABLE "payments" ADD COLUMN "signed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "intent_round" integer DEFAULT 0 NOT NULL;