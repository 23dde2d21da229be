DROP INDEX "webhook_events_app_idx";--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "tx" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE INDEX "webhook_events_app_list_idx" ON "webhook_events" USING btree ("app_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_events_app_type_idx" ON "webhook_events" USING btree ("app_id","type","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_events_app_stream_idx" ON "webhook_events" USING btree ("app_id","tx","id");