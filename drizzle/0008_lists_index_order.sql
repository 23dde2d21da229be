DROP INDEX "auctions_app_created_idx";--> statement-breakpoint
DROP INDEX "bids_auction_idx";--> statement-breakpoint
DROP INDEX "payments_app_created_idx";--> statement-breakpoint
DROP INDEX "prices_app_created_idx";--> statement-breakpoint
CREATE INDEX "auctions_app_created_idx" ON "auctions" USING btree ("app_id","created_at","id");--> statement-breakpoint
CREATE INDEX "bids_auction_idx" ON "bids" USING btree ("auction_id","created_at","id");--> statement-breakpoint
CREATE INDEX "payments_app_created_idx" ON "payments" USING btree ("app_id","created_at","id");--> statement-breakpoint
CREATE INDEX "prices_app_created_idx" ON "prices" USING btree ("app_id","created_at","id");