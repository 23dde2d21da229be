import type { Logger } from "pino";
import { SmtpMailer } from "./smtp.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The app the mail is about (an invitation, an auction's sign-in code), if any. */
  appId?: string;
}

/** Sends mail. One interface; the sandbox implementation is the embedded default. */
export interface Mailer {
  readonly id: string;
  send(message: MailMessage): Promise<void>;
}

/** Where the sandbox mailer keeps what it sends, for the sandbox inbox (`GET /sandbox/mail`). */
export interface SandboxMailStore {
  keep(message: MailMessage): Promise<void>;
}

// Long-lived secrets (invitation tokens, session tokens, keys) are masked in the log copy of a
// message: logs travel further than the database. The whole message is readable in the sandbox
// inbox; short one-time codes stay readable in the log too.
const SECRET = /\b((?:inv|ust|sk_test|sk_live|whsec|kyc|pwr|evt|lch)_[A-Za-z0-9]{0,4})[A-Za-z0-9_-]{8,}/g;

export function maskSecrets(text: string): string {
  return text.replace(SECRET, "$1…");
}

/**
 * The sandbox mailer stands in for the recipient's inbox: it stores every message for the sandbox
 * inbox (when given a store), keeps it in memory (newest last) for tests, and writes it to the
 * log with secrets masked.
 */
export class SandboxMailer implements Mailer {
  readonly id = "sandbox";
  readonly sent: MailMessage[] = [];
  private readonly logger: Logger;
  private readonly store: SandboxMailStore | undefined;
  constructor(logger: Logger, store?: SandboxMailStore) {
    this.logger = logger;
    this.store = store;
  }
  async send(message: MailMessage): Promise<void> {
    await this.store?.keep(message);
    this.sent.push(message);
    this.logger.info(
      { mail: { to: message.to, subject: message.subject, body: maskSecrets(message.text) } },
      "sandbox mail",
    );
  }
  /** Messages sent to `to`, newest last. */
  to(address: string): MailMessage[] {
    return this.sent.filter((m) => m.to === address.toLowerCase());
  }
}

/** Which mailer the service uses, chosen by id (`src/config/mail.ts` reads the settings). */
export type MailerChoice =
  | { transport: "sandbox"; from: string }
  | { transport: "smtp"; from: string; smtpUrl: string };

/** The mailer for `choice`: an SMTP server, or the sandbox (keeping mail in `store` if given). */
export function createMailer(choice: MailerChoice, logger: Logger, store?: SandboxMailStore): Mailer {
  return choice.transport === "smtp"
    ? new SmtpMailer(choice.smtpUrl, choice.from)
    : new SandboxMailer(logger, store);
}
