ALTER TABLE "payment_events" DROP CONSTRAINT "payment_events_payment_id_payments_id_fk";
