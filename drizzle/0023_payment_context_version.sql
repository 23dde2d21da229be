ALTER TABLE "apps" ADD COLUMN "context_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A new payment is decided on its app's rows and those the app's rows point at (the price, its
-- trigger and wallet, the caller's membership and user, the seller, the webhook endpoints, the
-- app's creator). Every change to one of them raises its app's context_version, in the same
-- transaction, so the app row's version (xmin) stands for all of them: the create's guard reads
-- that one row instead of joining six tables (payments/context.ts; docs/benchmarks.md, "The
-- create's guard, one row"). A change raises the app of the row before and after it.
CREATE FUNCTION payment_context_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE apps SET context_version = context_version + 1 WHERE id = OLD.app_id;
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.app_id IS DISTINCT FROM OLD.app_id) THEN
    UPDATE apps SET context_version = context_version + 1 WHERE id = NEW.app_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A wallet is read through the triggers that use it, which may name it from their own app.
CREATE FUNCTION payment_context_wallet_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE apps SET context_version = context_version + 1
    WHERE id = OLD.app_id OR id IN (SELECT app_id FROM triggers WHERE wallet_id = OLD.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A user is read as an app's creator (the answer's App.user) and as a member (their role, and
-- their second factor where the app requires one).
CREATE FUNCTION payment_context_user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE apps SET context_version = context_version + 1
    WHERE created_by = OLD.id OR id IN (SELECT app_id FROM members WHERE user_id = OLD.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The checkout page counts its views on the price's row: a view alone changes nothing a payment
-- is decided on, and a shopper who opens the page and then pays must not make the create read again.
CREATE TRIGGER prices_payment_context AFTER UPDATE ON prices FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'views') IS DISTINCT FROM (to_jsonb(NEW) - 'views'))
  EXECUTE FUNCTION payment_context_changed();
--> statement-breakpoint
CREATE TRIGGER prices_payment_context_rows AFTER INSERT OR DELETE ON prices FOR EACH ROW
  EXECUTE FUNCTION payment_context_changed();
--> statement-breakpoint
CREATE TRIGGER triggers_payment_context AFTER INSERT OR UPDATE OR DELETE ON triggers FOR EACH ROW
  EXECUTE FUNCTION payment_context_changed();
--> statement-breakpoint
CREATE TRIGGER members_payment_context AFTER INSERT OR UPDATE OR DELETE ON members FOR EACH ROW
  EXECUTE FUNCTION payment_context_changed();
--> statement-breakpoint
CREATE TRIGGER kycs_payment_context AFTER INSERT OR UPDATE OR DELETE ON kycs FOR EACH ROW
  EXECUTE FUNCTION payment_context_changed();
--> statement-breakpoint
CREATE TRIGGER webhook_endpoints_payment_context AFTER INSERT OR UPDATE OR DELETE ON webhook_endpoints
  FOR EACH ROW EXECUTE FUNCTION payment_context_changed();
--> statement-breakpoint
CREATE TRIGGER wallets_payment_context AFTER UPDATE OR DELETE ON wallets FOR EACH ROW
  EXECUTE FUNCTION payment_context_wallet_changed();
--> statement-breakpoint
CREATE TRIGGER users_payment_context AFTER UPDATE ON users FOR EACH ROW
  EXECUTE FUNCTION payment_context_user_changed();
