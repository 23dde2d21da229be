CREATE TABLE "rate_limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"hits" integer NOT NULL,
	"last_hit_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP TABLE "shopper_attempts" CASCADE;