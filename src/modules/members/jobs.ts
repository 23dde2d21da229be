import type { Deps } from "../../deps.ts";
import type { JobDefinition } from "../../platform/jobs/index.ts";

export interface InvitationMail {
  email: string;
  /** Absent on jobs queued before the sandbox inbox knew which app a mail is about. */
  appId?: string;
  appName: string;
  inviter: string;
  role: string;
  token: string;
}

export const INVITATION_JOB = "members.send-invitation";

/** The hosted page an invitation mail links to (`GET /invitations/{invite_token}`). */
function invitationUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/invitations/${encodeURIComponent(token)}`;
}

/** Sends the invitation mail; enqueued in the transaction that creates the member. */
export function invitationJob(deps: Pick<Deps, "mailer" | "config">): JobDefinition<InvitationMail> {
  return {
    name: INVITATION_JOB,
    retryLimit: 10,
    async handle(data) {
      await deps.mailer.send({
        to: data.email,
        appId: data.appId,
        subject: `${data.inviter} invited you to ${data.appName}`,
        text:
          `${data.inviter} invited you to the app "${data.appName}" as ${data.role}.\n\n` +
          `Accept the invitation here:\n${invitationUrl(deps.config.publicUrl, data.token)}\n\n` +
          `On that page, sign in with this address (${data.email}), or create an account with it, ` +
          `and accept. The link works once, and only for an account with this address.\n\n` +
          `From a program instead: sign in as that account and call\n` +
          `POST ${deps.config.publicUrl}/members/accept {"invite_token": "${data.token}"}\n`,
      });
    },
  };
}
