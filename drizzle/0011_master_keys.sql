CREATE TABLE "master_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"sealing" boolean DEFAULT false NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "master_keys_one_sealing" ON "master_keys" USING btree ("sealing") WHERE "master_keys"."sealing";