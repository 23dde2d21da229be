CREATE TABLE "triggers" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"wallet_id" text NOT NULL,
	"name" text NOT NULL,
	"custom_address_enabled" boolean DEFAULT false NOT NULL,
	"custom_address" text,
	"call_data" jsonb NOT NULL,
	"params_data" jsonb NOT NULL,
	"params_data_input" jsonb,
	"params_data_example" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallets" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"managed" boolean NOT NULL,
	"network_id" text NOT NULL,
	"test_network" boolean NOT NULL,
	"account_id" text NOT NULL,
	"public_key" text,
	"permission" text,
	"secret_key_id" text NOT NULL,
	"secret_wrapped_key" text NOT NULL,
	"secret_ciphertext" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "triggers" ADD CONSTRAINT "triggers_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "triggers" ADD CONSTRAINT "triggers_wallet_id_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."wallets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "triggers_app_list_idx" ON "triggers" USING btree ("app_id","created_at","id");--> statement-breakpoint
CREATE INDEX "triggers_wallet_idx" ON "triggers" USING btree ("wallet_id");--> statement-breakpoint
CREATE INDEX "wallets_app_list_idx" ON "wallets" USING btree ("app_id","created_at","id");--> statement-breakpoint
CREATE INDEX "wallets_secret_key_idx" ON "wallets" USING btree ("secret_key_id");