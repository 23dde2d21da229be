import { sql } from "drizzle-orm";
import { boolean, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * The fingerprints (`mk_…` ids, which reveal nothing about a key) of the master keys the database
 * holds secrets under. A process must hold every one to start (key-registry.ts); the one row with
 * `sealing` names the key every process seals new secrets with, so a new key starts sealing only
 * when `npm run rotate-master-key` says so, after every process was deployed knowing it.
 */
export const masterKeys = pgTable(
  "master_keys",
  {
    id: text("id").primaryKey(),
    sealing: boolean("sealing").notNull().default(false),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("master_keys_one_sealing").on(t.sealing).where(sql`${t.sealing}`)],
);
