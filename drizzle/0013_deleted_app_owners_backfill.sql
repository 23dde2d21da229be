-- Apps deleted before owners were recorded: their creator is the one owner known.
UPDATE "deleted_apps" SET "owners" = jsonb_build_array("created_by") WHERE "owners" = '[]'::jsonb;
