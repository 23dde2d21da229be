import { isIP } from "node:net";
import { ConfigError, type Env } from "./parse.ts";

/** `no-reply@example.com` or `Shop <no-reply@example.com>`. */
const FROM = /^(?:[^<>]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;

/** How mail leaves the service (docs/members.md). */
export type MailSettings =
  | { transport: "sandbox"; from: string }
  | { transport: "smtp"; from: string; smtpUrl: string };

/**
 * `SMTP_URL` (`smtp://user:pass@host:587`, or `smtps://…:465` for TLS from the first byte) sends
 * real mail through that server. Without it, test mode keeps mail in the sandbox inbox; live mode
 * refuses to start, since invitations and sign-in codes that go nowhere would strand real users.
 */
export function loadMailSettings(env: Env, sandbox: boolean, publicUrl: string): MailSettings {
  const host = new URL(publicUrl).hostname;
  const domain = host.includes(".") && isIP(host) === 0 ? host : "localhost.localdomain";
  const from = env.MAIL_FROM || `Payments <no-reply@${domain}>`;
  if (!FROM.test(from.trim())) {
    throw new ConfigError(
      "MAIL_FROM",
      "must be an address, or a name and an address: Shop <no-reply@example.com>",
    );
  }
  const smtpUrl = env.SMTP_URL;
  if (!smtpUrl) {
    if (!sandbox) {
      throw new ConfigError(
        "SMTP_URL",
        "live mode sends real mail: set the SMTP server (smtp://user:pass@host:587)",
      );
    }
    return { transport: "sandbox", from };
  }
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    throw new ConfigError(
      "SMTP_URL",
      "must be a URL: smtp://user:pass@host:587 or smtps://user:pass@host:465",
    );
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") {
    throw new ConfigError("SMTP_URL", "must start with smtp:// or smtps://");
  }
  return { transport: "smtp", from, smtpUrl };
}
