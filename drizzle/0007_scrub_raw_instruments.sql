-- Hand-written: before this release, sandbox confirms queued the card or bank account numbers
-- typed at checkout in the authorize job's payload. No job holds them any more: each such payload
-- is replaced by a payment method id the sandbox does not know, so a job still waiting fails its
-- payment ("unknown sandbox payment method") and the shopper pays again; nothing else changes.
DO $$
BEGIN
  IF to_regclass('pgboss.job') IS NOT NULL THEN
    UPDATE pgboss.job
       SET data = jsonb_set(data, '{method}', '{"type": "token", "id": "pm_sbx_scrubbed"}'::jsonb)
     WHERE name = 'payments.authorize'
       AND data->'method'->>'type' IN ('card', 'us_bank_account');
  END IF;
END $$;
--> statement-breakpoint
UPDATE job_outbox
   SET data = jsonb_set(data, '{method}', '{"type": "token", "id": "pm_sbx_scrubbed"}'::jsonb)
 WHERE name = 'payments.authorize'
   AND data->'method'->>'type' IN ('card', 'us_bank_account');
