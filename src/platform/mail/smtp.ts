import type { Transporter } from "nodemailer";
import type { Mailer, MailMessage } from "./index.ts";

/**
 * Real mail through an SMTP server, by nodemailer (STARTTLS when the server offers it, `smtps://`
 * for TLS from the first byte; one connection per message, as mail is rare here). A refused or failed send throws, so the job
 * that sends it retries with its back-off. nodemailer is loaded with the first mail, so a process
 * that sends none never holds it in memory.
 */
export class SmtpMailer implements Mailer {
  readonly id = "smtp";
  private transport: Promise<Transporter> | undefined;
  private readonly smtpUrl: string;
  private readonly from: string;

  constructor(smtpUrl: string, from: string) {
    this.smtpUrl = smtpUrl;
    this.from = from;
  }

  async send(message: MailMessage): Promise<void> {
    this.transport ??= import("nodemailer").then(
      ({ default: nodemailer }) => nodemailer.createTransport(this.smtpUrl),
      (error) => {
        // Not remembered: the job's retry loads it again rather than failing the same way forever.
        this.transport = undefined;
        throw error;
      },
    );
    await (await this.transport).sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
    });
  }
}
