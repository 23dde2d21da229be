DROP INDEX "payments_price_idx";--> statement-breakpoint
DROP INDEX "audit_events_app_action_idx";--> statement-breakpoint
CREATE INDEX "ledger_entries_app_type_idx" ON "ledger_entries" USING btree ("app_id","type","created_at","id");--> statement-breakpoint
CREATE INDEX "payments_price_created_idx" ON "payments" USING btree ("price_id","app_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_status_idx" ON "webhook_deliveries" USING btree ("endpoint_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_events_app_action_idx" ON "audit_events" USING btree ("app_id","action","created_at","id");