-- An amount range of a few cents (an exact amount above all) reads each amount's own run of this
-- index newest first and stops at the page: `created_at` and `id` are now its keys, so within one
-- amount the index is in list order, where as INCLUDE columns (0030) they were unordered and every
-- payment of the range was read and sorted (docs/benchmarks.md, "An amount range, amount by
-- amount"). A wider range still picks its keys from this index alone, as before. Kept out of the
-- schema file, as in 0012 and 0030.
DROP INDEX "payments_app_charge_idx";--> statement-breakpoint
CREATE INDEX "payments_app_charge_idx" ON "payments" USING btree ("app_id","charge_currency","charge_amount","created_at","id");
