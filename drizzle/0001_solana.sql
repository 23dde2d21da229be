CREATE TABLE "solana_collections" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"wallet_id" text NOT NULL,
	"network" text NOT NULL,
	"name" text NOT NULL,
	"symbol" text NOT NULL,
	"uri" text NOT NULL,
	"mint_address" text NOT NULL,
	"token_account_address" text NOT NULL,
	"metadata_account_address" text NOT NULL,
	"master_edition_account_address" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"tx_signature" text DEFAULT '' NOT NULL,
	"sent_transaction" jsonb,
	"send_attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"secret_key_id" text NOT NULL,
	"secret_wrapped_key" text NOT NULL,
	"secret_ciphertext" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "solana_trees" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"wallet_id" text NOT NULL,
	"network" text NOT NULL,
	"address" text NOT NULL,
	"max_depth" integer NOT NULL,
	"max_buffer_size" integer NOT NULL,
	"canopy_depth" integer NOT NULL,
	"account_size" integer NOT NULL,
	"rent_lamports" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"tx_signature" text DEFAULT '' NOT NULL,
	"sent_transaction" jsonb,
	"send_attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"secret_key_id" text NOT NULL,
	"secret_wrapped_key" text NOT NULL,
	"secret_ciphertext" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "solana_collections" ADD CONSTRAINT "solana_collections_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solana_collections" ADD CONSTRAINT "solana_collections_wallet_id_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."wallets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solana_trees" ADD CONSTRAINT "solana_trees_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solana_trees" ADD CONSTRAINT "solana_trees_wallet_id_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."wallets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "solana_collections_wallet_list_idx" ON "solana_collections" USING btree ("app_id","wallet_id","created_at","id");--> statement-breakpoint
CREATE INDEX "solana_trees_wallet_list_idx" ON "solana_trees" USING btree ("app_id","wallet_id","created_at","id");