ALTER TABLE "webhook_deliveries" ADD COLUMN "parked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_parked_idx" ON "webhook_deliveries" USING btree ("endpoint_id") WHERE "webhook_deliveries"."parked_at" is not null;