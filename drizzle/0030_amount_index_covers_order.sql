-- The list's amount range finds its payments out of list order (by amount, then newest first): the
-- page picks its twenty keys by `(created_at, id)` from this index alone, then reads those rows,
-- instead of reading and sorting every payment in the range (docs/benchmarks.md, "The amount
-- range's keys from its index"). Kept out of the schema file, as in 0012 (Drizzle does not describe
-- INCLUDE).
DROP INDEX "payments_app_charge_idx";--> statement-breakpoint
CREATE INDEX "payments_app_charge_idx" ON "payments" USING btree ("app_id","charge_currency","charge_amount") INCLUDE ("created_at","id");
