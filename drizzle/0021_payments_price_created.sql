DROP INDEX "payments_price_idx";--> statement-breakpoint
CREATE INDEX "payments_price_created_idx" ON "payments" USING btree ("price_id","created_at","id");