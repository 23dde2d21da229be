import { eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { JobDefinition } from "../../platform/jobs/index.ts";
import { issueAccountToken } from "./account-tokens.ts";
import { users } from "./tables.ts";

/**
 * What an account mail job carries: ids and the address, never a token. The job makes the token
 * itself (keeping only its hash) and mails it, so no link's secret is ever at rest, in job data
 * included. A retried job makes a new token; the one of a failed send was never delivered.
 */
export interface AccountMail {
  userId: string;
  kind: "password_reset" | "email_verification" | "email_changed";
  /**
   * The address a verification link is for (the job does nothing once the account's address
   * changed), or the former address told of a change.
   */
  email?: string;
}

export const ACCOUNT_MAIL_JOB = "users.send-account-mail";

export function accountMailJob(
  deps: Pick<Deps, "db" | "mailer" | "config" | "now">,
): JobDefinition<AccountMail> {
  return {
    name: ACCOUNT_MAIL_JOB,
    retryLimit: 10,
    async handle(data) {
      const [user] = await deps.db
        .select({ email: users.email, verifiedAt: users.emailVerifiedAt, disabled: users.disabled })
        .from(users)
        .where(eq(users.id, data.userId));
      if (!user || user.disabled) return;
      const base = deps.config.publicUrl;
      if (data.kind === "password_reset") {
        const { token } = await issueAccountToken(
          deps.db,
          deps.now(),
          data.userId,
          "password_reset",
          user.email,
        );
        await deps.mailer.send({
          to: user.email,
          subject: "Reset your password",
          text:
            `Someone (we hope you) asked to reset the password of the account ${user.email}.\n\n` +
            `Choose a new password here, within the hour:\n${base}/password-reset/${token}\n\n` +
            "The link works once. Setting a new password signs out every session of the account.\n" +
            "If you did not ask for this, ignore this mail: your password stays as it is.\n",
        });
        return;
      }
      if (data.kind === "email_changed" && data.email) {
        // The former address hears of the change: a hijacked session moving the account is noticed.
        await deps.mailer.send({
          to: data.email,
          subject: "Your account's email address was changed",
          text:
            `The account that used ${data.email} now uses ${user.email}.\n\n` +
            "If you did not do this, reset your password at once and contact the service's operator.\n",
        });
        return;
      }
      // A link for an address the account no longer has, or has proven already, would prove nothing.
      if (user.email !== data.email || user.verifiedAt) return;
      const { token } = await issueAccountToken(
        deps.db,
        deps.now(),
        data.userId,
        "email_verification",
        user.email,
      );
      await deps.mailer.send({
        to: user.email,
        subject: "Confirm your email address",
        text:
          `Confirm that ${user.email} is yours by opening this link within two days:\n` +
          `${base}/verify-email/${token}\n\n` +
          "From a program instead: POST " +
          `${base}/auth/verify-email {"token": "${token}"}\n\n` +
          "Until then the account cannot accept invitations or own an app in live mode.\n",
      });
    },
  };
}
