import { bigint, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Jobs written by a hand-written statement (`Jobs.sendPart`), waiting to be moved into pg-boss.
 * A row here is as durable as the change it was written with; the relay moves rows into pg-boss's
 * job table in batches, each batch in one transaction, so a job is neither lost nor doubled.
 * The row is small and has one index: a payment create pays for this insert, not for pg-boss's.
 */
export const jobOutbox = pgTable("job_outbox", {
  id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
  name: text("name").notNull(),
  data: jsonb("data").$type<object>().notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
