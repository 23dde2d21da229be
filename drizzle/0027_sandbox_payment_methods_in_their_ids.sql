-- A sandbox payment method's id now says what it leads to (its kind, its outcome's name and its
-- label), as Stripe's test payment methods (`pm_card_visa`) do: nothing is stored for it, and a
-- confirm reads nothing to know it. An id made before this migration (`pm_sbx_` and 24 hex
-- digits) is no longer known: a sandbox payment confirmed with one and not yet authorised ends
-- `failed` with that reason once its authorize job gives up, nothing charged. Sandbox data only.
DROP TABLE "sandbox_payment_methods" CASCADE;
