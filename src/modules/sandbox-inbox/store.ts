import { sql } from "drizzle-orm";
import type { Config } from "../../config.ts";
import { seal, sealingKeys, unsealWithAny } from "../../platform/crypto/sealed.ts";
import type { Database } from "../../platform/db/index.ts";
import { newId } from "../../platform/ids.ts";
import type { MailMessage, SandboxMailStore } from "../../platform/mail/index.ts";
import { apps } from "../apps/tables.ts";
import { sandboxMails } from "./tables.ts";

type KeySettings = Pick<Config, "masterKey" | "masterKeyPrevious" | "dataDir">;

/** Bound into each sealed text, so a text copied onto another row does not open. */
export const mailContext = (mailId: string) => `sandbox-mail:${mailId}`;

/** The sandbox mailer's store: one row per mail, its text sealed under the master key. */
export function sandboxMailStore(db: Database, keys: KeySettings): SandboxMailStore {
  return {
    async keep(message: MailMessage) {
      const id = newId("mail");
      await db.insert(sandboxMails).values({
        id,
        recipient: message.to.toLowerCase(),
        // An app deleted since the mail was asked for: the mail is kept, for its recipient only.
        appId: message.appId
          ? sql`(select ${apps.id} from ${apps} where ${apps.id} = ${message.appId})`
          : null,
        subject: message.subject,
        textSealed: seal(sealingKeys(keys).current.key, message.text, mailContext(id)),
      });
    },
  };
}

/** A stored mail's text, under any key of the ring (mails sealed before a rotation keep opening). */
export function openMailText(keys: KeySettings, row: { id: string; textSealed: string }): string {
  return unsealWithAny(sealingKeys(keys), row.textSealed, mailContext(row.id)).plaintext;
}
