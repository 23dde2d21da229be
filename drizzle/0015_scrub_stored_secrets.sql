-- Hand-written: before this release the invitation mail's job carried the invitation token in its
-- data (kept with the finished job for days), and the idempotency store kept each answer as sent,
-- one-time secrets included (API keys, webhook secrets, payment and invitation tokens). Finished
-- invitation jobs lose the token (a waiting one keeps it, to send its mail); stored answers holding
-- a secret are dropped: a retry with their key within the day runs again instead of replaying.
DO $$
BEGIN
  IF to_regclass('pgboss.job') IS NOT NULL THEN
    UPDATE pgboss.job
       SET data = data - 'token'
     WHERE name = 'members.send-invitation'
       AND state IN ('completed', 'cancelled', 'failed')
       AND data ? 'token';
  END IF;
END $$;
--> statement-breakpoint
DELETE FROM idempotency_keys
 WHERE response_body IS NOT NULL
   AND response_body NOT LIKE 'e1:%'
   AND response_body ~ '(sk_(test|live)_|whsec_|"payment_token"|inv_|kyc_et_)';
