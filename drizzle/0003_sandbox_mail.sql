CREATE TABLE "sandbox_mails" (
	"id" text PRIMARY KEY NOT NULL,
	"recipient" text NOT NULL,
	"app_id" text,
	"subject" text NOT NULL,
	"text_sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox_mails" ADD CONSTRAINT "sandbox_mails_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_mails_recipient_idx" ON "sandbox_mails" USING btree ("recipient","created_at");--> statement-breakpoint
CREATE INDEX "sandbox_mails_app_idx" ON "sandbox_mails" USING btree ("app_id","created_at");--> statement-breakpoint
CREATE INDEX "sandbox_mails_created_idx" ON "sandbox_mails" USING btree ("created_at");