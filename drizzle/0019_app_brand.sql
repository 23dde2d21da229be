CREATE TABLE "app_icons" (
	"app_id" text PRIMARY KEY NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "display_name" text;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "accent_color" text;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "icon_type" text;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "icon_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "app_icons" ADD CONSTRAINT "app_icons_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apps" ADD CONSTRAINT "apps_accent_color_check" CHECK ("apps"."accent_color" ~ '^#[0-9a-f]{6}$');--> statement-breakpoint
ALTER TABLE "apps" ADD CONSTRAINT "apps_icon_type_check" CHECK ("apps"."icon_type" in ('image/png', 'image/jpeg', 'image/webp'));