-- Hand-written: the books' rules the schema cannot say (docs/ledger.md), and the entries of the
-- payments made before the ledger existed.

-- Every ledger transaction sums to zero per currency, checked at commit (deferred), so the entries
-- of one event may be written in any order within the transaction.
CREATE FUNCTION ledger_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM ledger_entries
     WHERE transaction_id = NEW.transaction_id
     GROUP BY currency
    HAVING sum(amount) <> 0
  ) THEN
    RAISE EXCEPTION 'ledger transaction % does not balance', NEW.transaction_id
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_entries_balanced
  AFTER INSERT ON ledger_entries
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION ledger_check_balanced();
--> statement-breakpoint
-- Entries are never changed or removed: a mistake is corrected by a new, reversing transaction.
CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger entries are immutable (% refused)', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_immutable
  BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
CREATE TRIGGER ledger_entries_no_truncate
  BEFORE TRUNCATE ON ledger_entries
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_amount_nonzero CHECK (amount <> 0);
--> statement-breakpoint
-- The payments made before this release, booked as the code books them now (src/modules/ledger/
-- entries.ts): same transaction ids, so nothing that happens to them later is booked twice. Refunds
-- before this release were always whole (the seller and the app give back their shares, the
-- platform the rest: it bears the provider's kept fee); a payment with no `hold` event was never held.
WITH figures AS (
  SELECT p.id AS pid, p.app_id, p.charge_currency AS cur, p.charge_amount AS t,
         p.platform_amount AS pl, p.app_amount AS ap, p.seller_amount AS se,
         p.charge_amount - p.platform_amount - p.app_amount - p.seller_amount AS fee,
         CASE WHEN p.kyc_id IS NULL THEN 'app_share' ELSE 'seller_payable:' || p.kyc_id END AS sa,
         coalesce(p.kyc_id, 'app') AS seller,
         p.status, p.captured_amount, p.refunded_amount, p.transfers, p.created_at, p.updated_at,
         EXISTS (SELECT 1 FROM payment_events e WHERE e.payment_id = p.id AND e.to_status = 'hold') AS held
    FROM payments p
),
lines AS (
  SELECT f.pid || ':hold' AS txid, v.ord, v.account, v.amount, 'hold' AS type, NULL::text AS reference,
         f.created_at AS at, f.*
    FROM figures f,
         LATERAL (VALUES (1, 'shoppers', -f.t), (2, 'shopper_funds_held', f.t)) v(ord, account, amount)
   WHERE f.held
  UNION ALL
  SELECT f.pid || ':capture', v.ord, v.account, v.amount, 'capture', NULL, f.updated_at, f.*
    FROM figures f,
         LATERAL (VALUES (1, 'shopper_funds_held', -f.t), (2, 'provider_fees', f.fee),
                         (3, 'platform_share', f.pl), (4, 'app_share', f.ap), (5, f.sa, f.se)) v(ord, account, amount)
   WHERE f.held AND f.captured_amount > 0
  UNION ALL
  SELECT f.pid || ':void', v.ord, v.account, v.amount, 'void', NULL, f.updated_at, f.*
    FROM figures f,
         LATERAL (VALUES (1, 'shopper_funds_held', -f.t), (2, 'shoppers', f.t)) v(ord, account, amount)
   WHERE f.held AND f.captured_amount = 0 AND f.status IN ('cancelled', 'failed')
  UNION ALL
  SELECT f.pid || ':refund:1', v.ord, v.account, v.amount, 'refund', NULL, f.updated_at, f.*
    FROM figures f,
         LATERAL (VALUES (1, 'platform_share', -(f.t - f.ap - f.se)), (2, 'app_share', -f.ap),
                         (3, f.sa, -f.se), (4, 'provider_clearing', f.t)) v(ord, account, amount)
   WHERE f.held AND f.status = 'refunded'
  UNION ALL
  SELECT f.pid || ':refund_settled:1', v.ord, v.account, v.amount, 'refund_settled', NULL, f.updated_at, f.*
    FROM figures f,
         LATERAL (VALUES (1, 'provider_clearing', -f.refunded_amount), (2, 'refunds', f.refunded_amount)) v(ord, account, amount)
   WHERE f.held AND f.status = 'refunded' AND f.refunded_amount > 0
  UNION ALL
  SELECT f.pid || ':bank_return', v.ord, v.account, v.amount, 'bank_return', NULL, f.updated_at, f.*
    FROM figures f,
         LATERAL (VALUES (1, 'platform_share', -(f.t - f.ap - f.se)), (2, 'app_share', -f.ap),
                         (3, f.sa, -f.se), (4, 'refunds', f.t)) v(ord, account, amount)
   WHERE f.held AND f.status = 'failed' AND f.captured_amount > 0
  UNION ALL
  SELECT f.pid || ':transfer:seller', v.ord, v.account, v.amount, 'transfer', f.transfers ->> 'seller', f.updated_at, f.*
    FROM figures f,
         LATERAL (VALUES (1, 'seller_payable:' || f.seller, -f.se), (2, 'seller_paid:' || f.seller, f.se)) v(ord, account, amount)
   WHERE f.transfers ? 'seller'
  UNION ALL
  SELECT f.pid || ':transfer_reversal:seller:reversal', v.ord, v.account, v.amount, 'transfer_reversal',
         f.transfers ->> 'seller:reversal', f.updated_at, f.*
    FROM figures f,
         LATERAL (VALUES (1, 'seller_paid:' || f.seller, -f.se), (2, 'seller_payable:' || f.seller, f.se)) v(ord, account, amount)
   WHERE f.transfers ? 'seller:reversal'
),
numbered AS (
  SELECT l.*, (row_number() OVER (PARTITION BY l.txid ORDER BY l.ord) - 1)::smallint AS line
    FROM lines l
   WHERE l.amount <> 0
)
INSERT INTO ledger_entries (id, transaction_id, line, app_id, account, currency, amount, type, payment_id, reference, created_at)
SELECT 'ble_bf' || md5(n.txid || ':' || n.line), n.txid, n.line, n.app_id, n.account, n.cur, n.amount, n.type,
       n.pid, n.reference, n.at
  FROM numbered n;
--> statement-breakpoint
-- A refund's amount is now recorded when it is asked for (it was when the provider made it): a
-- whole refund still waiting for its job says so already.
UPDATE payments SET refunded_amount = charge_amount WHERE status = 'refunded' AND refunded_amount = 0;
