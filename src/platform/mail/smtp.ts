import nodemailer, { type Transporter } from "nodemailer";
import type { Mailer, MailMessage } from "./index.ts";

/**
 * Real mail through an SMTP server, by nodemailer (STARTTLS when the server offers it, `smtps://`
 * for TLS from the first byte; one connection per message, as mail is rare here). A refused or failed send throws, so the job
 * that sends it retries with its back-off.
 */
export class SmtpMailer implements Mailer {
  readonly id = "smtp";
  private readonly transport: Transporter;
  private readonly from: string;

  constructor(smtpUrl: string, from: string) {
    this.transport = nodemailer.createTransport(smtpUrl);
    this.from = from;
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
    });
  }
}
