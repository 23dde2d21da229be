import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One counter per limited key (`login:ip:203.0.113.9`, `checkout:price:prc_…`): a fixed window
 * for request limits, or a run of failures for log-in back-off. Kept in the database so every
 * process of a deployment counts against the same allowance.
 */
export const rateLimitCounters = pgTable("rate_limit_counters", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  hits: integer("hits").notNull(),
  lastHitAt: timestamp("last_hit_at", { withTimezone: true }).notNull(),
});
