-- An app's events no longer have a foreign key to the app: its check locked the app's row (FOR KEY
-- SHARE) for every event written, so every create and move of one app's payments waited on that one
-- row. An app's delete leaves its events, unlisted, to the retention job. docs/decisions.md §17 and
-- docs/benchmarks.md, "The app's row left unlocked".
ALTER TABLE "webhook_events" DROP CONSTRAINT "webhook_events_app_id_apps_id_fk";
