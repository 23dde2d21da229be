import type { Logger } from "pino";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail. One interface; the sandbox implementation is the embedded default. */
export interface Mailer {
  readonly id: string;
  send(message: MailMessage): Promise<void>;
}

// Long-lived secrets (invitation tokens, session tokens, keys) are masked in the log copy of a
// message; short one-time codes stay readable, because the log is the sandbox's inbox.
const SECRET = /\b((?:inv|ust|sk_test|sk_live|whsec|kyc)_[A-Za-z0-9]{0,4})[A-Za-z0-9_-]{8,}/g;

export function maskSecrets(text: string): string {
  return text.replace(SECRET, "$1…");
}

/**
 * The sandbox mailer stands in for the recipient's inbox: it keeps every message (newest last) for
 * tests, and writes it to the log, secrets masked, which is where a developer trying the service
 * reads one-time codes.
 */
export class SandboxMailer implements Mailer {
  readonly id = "sandbox";
  readonly sent: MailMessage[] = [];
  private readonly logger: Logger;
  constructor(logger: Logger) {
    this.logger = logger;
  }
  async send(message: MailMessage): Promise<void> {
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
