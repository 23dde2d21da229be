import type { Custody } from "../../platform/crypto/custody.ts";
import type { Database } from "../../platform/db/index.ts";
import { newId } from "../../platform/ids.ts";
import type { MailMessage, SandboxMailStore } from "../../platform/mail/index.ts";
import { appIdIfExists } from "../apps/queries.ts";
import { sandboxMails } from "./tables.ts";

/** Bound into each sealed text, so a text copied onto another row does not open. */
export const mailContext = (mailId: string) => `sandbox-mail:${mailId}`;

/** The sandbox mailer's store: one row per mail, its text sealed under the master key. */
export function sandboxMailStore(db: Database, custody: Custody): SandboxMailStore {
  return {
    async keep(message: MailMessage) {
      const id = newId("mail");
      await db.insert(sandboxMails).values({
        id,
        recipient: message.to.toLowerCase(),
        // An app deleted since the mail was asked for: the mail is kept, for its recipient only.
        appId: message.appId ? appIdIfExists(message.appId) : null,
        subject: message.subject,
        textSealed: custody.sealText(mailContext(id), message.text),
      });
    },
  };
}

/** A stored mail's text, under any key of the ring (mails sealed before a rotation keep opening). */
export function openMailText(custody: Custody, row: { id: string; textSealed: string }): string {
  return custody.openText(mailContext(row.id), row.textSealed);
}
