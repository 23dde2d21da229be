import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  /** The text part, decoded from quoted-printable. */
  text: string;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** A real SMTP server on loopback (the `smtp-server` package) that keeps every message it accepts. */
export class SmtpInbox {
  readonly received: ReceivedMail[] = [];
  private server: SMTPServer | undefined;
  url = "";

  async start(): Promise<string> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData: (stream, session, callback) => {
        let raw = "";
        stream.setEncoding("utf8");
        stream.on("data", (chunk: string) => {
          raw += chunk;
        });
        stream.on("end", () => {
          const split = raw.indexOf("\r\n\r\n");
          const head = raw.slice(0, split);
          const subject = /^Subject: (.*)$/im.exec(head)?.[1] ?? "";
          const body = raw.slice(split + 4);
          this.received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            subject,
            text: /quoted-printable/i.test(head) ? decodeQuotedPrintable(body) : body,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
    return this.url;
  }

  to(address: string): ReceivedMail[] {
    return this.received.filter((m) => m.to.includes(address));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
