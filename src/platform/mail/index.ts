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

/**
 * The sandbox mailer stands in for the recipient's inbox: it keeps every message (newest last) and
 * writes it to the log, which is where a developer trying the service reads invitations and codes.
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
      { mail: { to: message.to, subject: message.subject, body: message.text } },
      "sandbox mail",
    );
  }
  /** Messages sent to `to`, newest last. */
  to(address: string): MailMessage[] {
    return this.sent.filter((m) => m.to === address.toLowerCase());
  }
}
