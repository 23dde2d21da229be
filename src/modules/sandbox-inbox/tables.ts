import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { appPrimaryKey } from "../apps/references.ts";

/**
 * Every mail the sandbox mailer "sent", for the sandbox inbox (sandbox mode only; pruned after
 * SANDBOX_MAIL_RETENTION_HOURS). In the database so every process's mails are in one inbox.
 */
export const sandboxMails = pgTable(
  "sandbox_mails",
  {
    id: text("id").primaryKey(),
    // Lower case, as users' emails are stored.
    recipient: text("recipient").notNull(),
    // The app the mail is about (an invitation, an auction's code), whose owners may read it.
    appId: text("app_id").references(appPrimaryKey, { onDelete: "cascade" }),
    subject: text("subject").notNull(),
    // Mails carry invitation tokens and codes: the text is sealed like every stored secret.
    textSealed: text("text_sealed").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("sandbox_mails_recipient_idx").on(t.recipient, t.createdAt),
    index("sandbox_mails_app_idx").on(t.appId, t.createdAt),
    index("sandbox_mails_created_idx").on(t.createdAt),
  ],
);
