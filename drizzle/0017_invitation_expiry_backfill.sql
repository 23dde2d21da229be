-- Invitations sent before invitations expired get the default lifetime from when they were sent:
-- a token mailed months ago stops working rather than living for ever.
UPDATE "members" SET "invite_expires_at" = "created_at" + interval '7 days'
WHERE "invite_token_hash" IS NOT NULL AND "invite_expires_at" IS NULL;
