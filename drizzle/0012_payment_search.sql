-- Server-side search of an app's payments (GET /payments/{app_id} filters, docs/payments.md
-- "Finding payments"): each filter is served by an index within the app.
-- pg_trgm is a trusted extension (PostgreSQL 13+): a database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- shopper_email contains (case-insensitive): a trigram index on the lower-cased address.
CREATE INDEX IF NOT EXISTS "payments_email_trgm_idx" ON "payments" USING gin (lower("shopper_email") gin_trgm_ops);--> statement-breakpoint
-- id_prefix: LIKE 'pay_abc%' walks a pattern index whatever the database's collation (ids are
-- unique across apps, so a few characters already narrow it to a handful of rows).
CREATE INDEX IF NOT EXISTS "payments_id_pattern_idx" ON "payments" ("id" text_pattern_ops);--> statement-breakpoint
-- status, newest first.
CREATE INDEX IF NOT EXISTS "payments_app_status_created_idx" ON "payments" ("app_id", "status", "created_at", "id");--> statement-breakpoint
-- amount range in one charge currency.
CREATE INDEX IF NOT EXISTS "payments_app_charge_idx" ON "payments" ("app_id", "charge_currency", "charge_amount");
